/**
 * One slot of an action (a document's files, an identity document's front, a selfie...): what is
 * already saved (from the server's answer, so a reopened link shows it), a progress bar while a
 * file is sent, removal of a saved file, and the ways to add one: the camera for capture slots when
 * the device has one, and a file chooser, always.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { HttpError } from '../shared/http.ts';
import type { Action, PortalApi, Slot } from './api.ts';
import { apiErrorText } from './api-errors.ts';
import { CameraCapture, cameraSupported } from './CameraCapture.tsx';
import type { Translate } from './i18n.tsx';
import { useI18n } from './i18n.tsx';
import { formatSize, slotTitle } from './labels.ts';
import { movedOn } from './moved-on.ts';

/** The service's upload limit (src/files/upload-file.ts): a bigger file is refused before sending. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The refusal of a file in a format the slot does not take, saying what it takes: a photo slot
 * (the identity capture) takes no PDF and a video slot no photo, so one sentence for all would
 * send the person back with the same kind of file.
 */
function badFormat(t: Translate, slot: Slot, name: string): string {
  const types = slot.accept.split(',').map((type) => type.trim());
  if (types.every((type) => type.startsWith('image/'))) return t('badFormatPhoto', { name });
  if (types.every((type) => type.startsWith('video/'))) return t('badFormatVideo', { name });
  return t('badFormat', { name });
}

/** What went wrong with a file, in the page's language where the cause is known. */
function uploadError(t: Translate, err: unknown, name: string, slot: Slot): string {
  if (err instanceof HttpError) {
    if (err.status === 0) return t('networkError');
    const body = err.body as { code?: string; details?: { path?: string }[] } | null;
    const path = body?.details?.[0]?.path;
    // a small file can be a huge image (a 107 KB scan of 11000 × 10000 pixels): the pixel limit's
    // 413 has a code of its own, and is not said as the 20 MB limit
    if (err.status === 413)
      return t(body?.code === 'IMAGE_TOO_MANY_PIXELS' ? 'tooManyPixels' : 'tooLarge', { name });
    // a format the slot takes, under a name that says another (a PDF named scan.png): not a format
    // to change, a name to fix, with the endings this slot takes (a video slot takes no .pdf)
    if (err.status === 400 && body?.code === 'FILE_NAME_MISMATCH')
      return t('badName', { name, extensions: extensionNames(slot.accept) });
    // a PDF or photo that cannot be read: the format was right, the file is not
    if (err.status === 400 && body?.code === 'FILE_DAMAGED') return t('damagedFile', { name });
    if (err.status === 400 && path === 'file') return badFormat(t, slot, name);
  }
  return apiErrorText(t, err);
}

/** The formats a slot takes (its `accept` list of media types), by the names people know them by. */
const FORMAT_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'video/webm': 'WebM',
  'video/mp4': 'MP4',
  'video/quicktime': 'MOV',
};
/** The file name endings of a slot's formats, as a name to match its content should end. */
const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'video/webm': '.webm',
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
};
function extensionNames(accept: string): string {
  return accept
    .split(',')
    .map((type) => EXTENSIONS[type.trim()])
    .filter(Boolean)
    .join(', ');
}
function formatNames(accept: string): string {
  return accept
    .split(',')
    .map((type) => FORMAT_NAMES[type.trim()] ?? type.trim())
    .join(', ');
}

/** A refusal of the file itself (its format, name, size or content), not of the step: the next file may go. */
function refusedForItself(err: unknown): boolean {
  if (!(err instanceof HttpError)) return false;
  const body = err.body as { details?: { path?: string }[] } | null;
  return (
    err.status === 413 || err.status === 415 || (err.status === 400 && body?.details?.[0]?.path === 'file')
  );
}

interface Props {
  api: PortalApi;
  action: Action;
  slot: Slot;
  editable: boolean;
  onAction: (a: Action) => void;
  /** The step was sent, approved or removed meanwhile: the card says so and shows it as it is now. */
  onMovedOn: () => void;
  /**
   * Called with +1 when this field starts sending files and -1 once it is done: the card holds its
   * Send while any of its fields is sending (a step sent under an upload lost that file).
   */
  onSending: (delta: 1 | -1) => void;
  onError: (err: unknown) => void;
  announce: (text: string) => void;
}

export function SlotField({
  api,
  action,
  slot,
  editable,
  onAction,
  onMovedOn,
  onSending,
  onError,
  announce,
}: Props) {
  const { t, lang } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // a refusal is about the slot as it was: once its files or the step's state change by something
  // else than this field (a file sent from another tab, the step sent), it no longer holds and is
  // cleared. This field's own sends and removals say their outcome themselves (`ownChange`).
  const filesKey = slot.files.map((f) => f.id).join(',');
  const ownChange = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys are what the effect reacts to
  useEffect(() => {
    if (ownChange.current) ownChange.current = false;
    else setError(null);
  }, [filesKey, action.state]);
  const changed = (a: Action) => {
    ownChange.current = true;
    onAction(a);
  };
  const [camera, setCamera] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  // the control that had the focus (the file chooser's button, a file's Remove) is gone while a file
  // is sent or once it is removed: focus then fell to the page's start, and a keyboard user began
  // again from the top. After each, the focus comes back to the slot.
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (!refocus) return;
    const active = document.activeElement;
    // the person moved on meanwhile (another field, another slot): their focus is left alone
    if (active && active !== document.body && !fieldset.current?.contains(active)) return;
    // the add control first (where the focus was for an upload), never a Remove a stray Enter
    // would press: the slot itself when it has no add control
    const target = fieldset.current?.querySelector<HTMLElement>('.buttons button') ?? fieldset.current;
    target?.focus();
  }, [refocus]);

  const full = slot.files.length >= slot.max_files;
  const single = slot.max_files === 1;
  const busy = progress !== null;

  // `leftOut`: files chosen beyond the slot's room, said once the others are sent. A file refused
  // for itself (its format, its size, damaged) is named and the next one is still sent: the contact
  // who chose four files learns what became of each. A refusal about the step (it was sent, approved
  // or changed meanwhile; the network) stops there, as the other files would meet it too.
  const send = async (files: { blob: Blob; name: string }[], leftOut: string[] = []) => {
    onSending(1);
    try {
      await sendEach(files, leftOut);
    } finally {
      onSending(-1);
    }
  };
  const sendEach = async (files: { blob: Blob; name: string }[], leftOut: string[]) => {
    setError(null);
    const problems: string[] = [];
    let stopped = false;
    for (const { blob, name } of files) {
      if (blob.size > MAX_FILE_BYTES) {
        problems.push(t('tooLarge', { name }));
        continue;
      }
      setProgress({ name, fraction: 0 });
      try {
        const updated = await api.upload(action.id, slot.key, blob, name, (fraction) =>
          setProgress({ name, fraction }),
        );
        changed(updated);
        announce(t('uploaded', { name }));
      } catch (err) {
        onError(err);
        if (movedOn(err)) {
          onMovedOn();
          stopped = true;
          break;
        }
        problems.push(uploadError(t, err, name, slot));
        if (!refusedForItself(err)) {
          stopped = true;
          break;
        }
      } finally {
        setProgress(null);
      }
    }
    if (!stopped && leftOut.length)
      problems.push(t('tooManyFiles', { names: leftOut.join(', '), n: slot.max_files }));
    if (problems.length) setError(problems.join(' '));
    setRefocus((n) => n + 1);
  };

  const onFiles = (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (input.current) input.current.value = '';
    // a multi-file slot takes what still fits; a single-file slot is replaced by the server
    const room = single ? 1 : Math.max(0, slot.max_files - slot.files.length);
    void send(
      chosen.slice(0, room).map((f) => ({ blob: f, name: f.name })),
      chosen.slice(room).map((f) => f.name),
    );
  };

  const remove = async (fileId: string, name: string) => {
    setError(null);
    try {
      changed(await api.removeFile(action.id, fileId));
      announce(t('removed', { name }));
      setRefocus((n) => n + 1);
    } catch (err) {
      if (movedOn(err)) onMovedOn();
      else setError(apiErrorText(t, err));
      onError(err);
    }
  };

  const onPhoto = (photo: Blob) => {
    setCamera(false);
    void send([{ blob: photo, name: `${slot.key}.jpg` }]);
  };
  // the camera's buttons go with it: the focus comes back to the slot's "Take a photo"
  const onCameraCancel = useCallback(() => {
    setCamera(false);
    setRefocus((n) => n + 1);
  }, []);
  const onCameraUnavailable = useCallback(() => {
    setCamera(false);
    setCameraFailed(true);
  }, []);

  const percent = progress ? Math.round(progress.fraction * 100) : 0;
  const canAdd = editable && !busy && (!full || single);
  // a full slot of several files keeps its add control, unusable and saying why, so the missing
  // button is not a puzzle; aria-disabled rather than disabled keeps it reachable with Tab, so a
  // screen reader user lands on it and hears the reason (aria-describedby)
  const fullNotice = editable && !busy && full && !single;
  // the camera takes photos: a slot that takes no image (a video) gets the file chooser only
  const takesImages = slot.accept.split(',').some((type) => type.trim().startsWith('image/'));
  const showCamera = editable && slot.capture !== null && takesImages && cameraSupported() && !cameraFailed;

  return (
    <fieldset className="slot" aria-describedby={`${id}-meta`} ref={fieldset} tabIndex={-1}>
      <legend>{slotTitle(t, slot)}</legend>
      <p className="slot-meta" id={`${id}-meta`}>
        {slot.required ? t('required') : t('optional')}
        {slot.max_files > 1 ? ` · ${t('upTo', { n: slot.max_files })}` : ''}
        {/* what is taken, said before a refusal says it */}
        {` · ${formatNames(slot.accept)} · ${t('maxSize', { mb: MAX_FILE_BYTES / (1024 * 1024) })}`}
      </p>
      {slot.files.length ? (
        <ul className="files">
          {slot.files.map((f) => (
            <li key={f.id}>
              <span className="file-name">{f.name}</span>
              <span className="file-size">{formatSize(f.size, lang)}</span>
              {editable ? (
                <button
                  type="button"
                  className="link"
                  disabled={busy}
                  aria-label={t('removeNamed', { name: f.name })}
                  onClick={() => void remove(f.id, f.name)}
                >
                  {t('remove')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">{t('noFiles')}</p>
      )}
      <div className="progress" aria-live="polite">
        {progress ? (
          <>
            <progress max={100} value={percent} aria-label={progress.name} />
            <span>{t('uploading', { name: progress.name, percent: Math.floor(percent / 10) * 10 })}</span>
          </>
        ) : null}
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {camera && slot.capture ? (
        <CameraCapture
          facing={slot.capture}
          onPhoto={onPhoto}
          onCancel={onCameraCancel}
          onUnavailable={onCameraUnavailable}
        />
      ) : canAdd ? (
        <div className="buttons">
          {showCamera ? (
            <button type="button" className="primary" onClick={() => setCamera(true)}>
              {slot.capture === 'user' ? t('takeSelfie') : t('takePhoto')}
            </button>
          ) : null}
          <button
            type="button"
            className={showCamera ? '' : 'primary'}
            onClick={() => input.current?.click()}
          >
            {full && single ? t('replaceFile') : slot.max_files > 1 ? t('chooseFiles') : t('chooseFile')}
          </button>
          <input
            ref={input}
            type="file"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            accept={slot.accept}
            // a slot to be captured that the page's own camera does not take (the video: the camera
            // here takes photos) asks the phone for its camera (`user`: the front one) rather than
            // its gallery; an image slot's chooser stays the way to pick a file already taken
            capture={takesImages ? undefined : (slot.capture ?? undefined)}
            multiple={slot.max_files > 1}
            data-slot={slot.key}
            onChange={(e) => onFiles(e.currentTarget.files)}
          />
        </div>
      ) : fullNotice ? (
        <div className="buttons">
          <button type="button" aria-disabled="true" aria-describedby={`${id}-full`}>
            {t('chooseFiles')}
          </button>
          <p className="hint slot-full" id={`${id}-full`}>
            {t('slotFull', { n: slot.max_files })}
          </p>
        </div>
      ) : null}
      {editable && cameraFailed && !slot.files.length ? (
        <p className="hint">{t('cameraUnavailable')}</p>
      ) : null}
    </fieldset>
  );
}
