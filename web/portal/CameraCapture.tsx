/**
 * Live capture with the device camera: preview, then one still frame drawn on a canvas and encoded
 * as JPEG. `facing` is 'user' (the selfie camera) or 'environment' (the back camera, for documents).
 * Any failure (no camera, permission refused) hands over to the file input, which is always there.
 */
import { useEffect, useRef, useState } from 'react';
import { useI18n } from './i18n.tsx';

export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
}

interface Props {
  facing: 'user' | 'environment';
  onPhoto: (photo: Blob) => void;
  onCancel: () => void;
  onUnavailable: () => void;
}

/** The page-wide event a camera announces itself with (the others close). */
const CAMERA_OPENED = 'vericase:camera-opened';

export function CameraCapture({ facing, onPhoto, onCancel, onUnavailable }: Props) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  const captureButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const [ready, setReady] = useState(false);
  // the button that opened the camera is gone: the focus goes to Cancel (Capture is disabled until
  // the picture runs, then takes it), never to the page's start
  useEffect(() => {
    cancelButton.current?.focus();
  }, []);
  // once the picture runs, Capture takes the focus from Cancel: after the render that enables it (a
  // disabled button takes no focus, and focusing it in the same tick as setReady left the focus on
  // Cancel, where the next Enter closed the camera). Not when the person moved on meanwhile.
  useEffect(() => {
    if (!ready) return;
    const active = document.activeElement;
    if (active === cancelButton.current || active === document.body || active === null)
      captureButton.current?.focus();
  }, [ready]);
  // one camera at a time: a phone gives its camera to one preview, and two slots' previews side by
  // side left the first one black. Opening a camera closes any other the page has open.
  useEffect(() => {
    const me = Symbol('camera');
    window.dispatchEvent(new CustomEvent(CAMERA_OPENED, { detail: me }));
    const onOther = (e: Event) => {
      if ((e as CustomEvent).detail !== me) onCancel();
    };
    window.addEventListener(CAMERA_OPENED, onOther);
    return () => window.removeEventListener(CAMERA_OPENED, onOther);
  }, [onCancel]);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: { ideal: facing }, width: { ideal: 1920 } }, audio: false })
      .then(async (s) => {
        if (stopped) {
          for (const track of s.getTracks()) track.stop();
          return;
        }
        stream = s;
        const v = video.current;
        if (!v) return;
        v.srcObject = s;
        await v.play();
        setReady(true);
      })
      .catch(() => {
        if (!stopped) onUnavailable();
      });
    return () => {
      stopped = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [facing, onUnavailable]);

  const capture = () => {
    const v = video.current;
    if (!v?.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    canvas.toBlob((blob) => (blob ? onPhoto(blob) : onUnavailable()), 'image/jpeg', 0.9);
  };

  return (
    // Escape closes the camera, as it closes a dialog
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys of the buttons inside it, bubbled
    <div
      className="camera"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <video
        ref={video}
        className={facing === 'user' ? 'camera-video mirrored' : 'camera-video'}
        aria-label={t('cameraLabel')}
        muted
        playsInline
      />
      <p className="hint" aria-live="polite">
        {ready
          ? t('cameraReady', { what: facing === 'user' ? t('cameraFace') : t('cameraDocument') })
          : t('cameraStarting')}
      </p>
      <div className="buttons">
        <button type="button" className="primary" ref={captureButton} disabled={!ready} onClick={capture}>
          {t('capture')}
        </button>
        <button type="button" ref={cancelButton} onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
