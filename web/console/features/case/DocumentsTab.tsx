/**
 * The case's documents (GET /v1/cases/{id}/documents): the list on the left; the chosen document's
 * file in a viewer (images as images, PDFs in the browser's PDF viewer, other formats to download)
 * beside what was read from it: the check's result, its extracted information and the criteria it
 * was judged on (GET /v1/checks/{type}/{id}).
 *
 * Files come from GET /v1/files/{id} as bytes without a type: the type is read from the first bytes
 * and the blob given it, so the browser shows it (the blob: URL lives until the file changes).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import { useLang } from '../../shell/i18n.tsx';
import { useAutomaticComment } from '../act-i18n.ts';
import { Value } from '../checks/CheckPanel.tsx';
import { usePathLabel } from '../field-label.ts';
import { criteria, flattenInformation, isObject, type Json, sniffType } from './document-data.ts';
import { documentName, safeFileName } from './document-name.ts';
import { type CaseT, formatDateTime, problemMessage, useCaseT } from './i18n.ts';
import type { CaseDocument, CaseEntity } from './types.ts';

/** A document's name in the console's language (document-name.ts). */
function useDocumentName(): (name: string) => string {
  const { lang } = useLang();
  return useCallback((name: string) => documentName(name, lang), [lang]);
}

const SHOWN = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/webp']);
const EXTENSION: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
};

const docKey = (d: CaseDocument, i: number) =>
  `${d.check?.id ?? d.document_order?.id ?? d.type}:${d.check?.version ?? ''}:${i}`;

export function DocumentsTab(props: {
  caseId: string;
  entities: CaseEntity[];
  version: number;
  /** The check whose document is shown first (else the first document). */
  checkId?: string | null;
  /** The case's name: a case report is downloaded under it. */
  caseName?: string;
}) {
  const t = useCaseT();
  const docName = useDocumentName();
  const [docs, setDocs] = useState<CaseDocument[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [history, setHistory] = useState(false);

  useEffect(() => {
    void props.version;
    let live = true;
    void api
      .GET('/v1/cases/{id}/documents', {
        params: { path: { id: props.caseId }, query: { include_check_history: history } },
      })
      .then((res) => {
        if (!live) return;
        if (res.error || !res.data) setError(problemMessage(res.error, t));
        else {
          setError(null);
          setDocs(res.data.data);
        }
      });
    return () => {
      live = false;
    };
  }, [props.caseId, props.version, history, t]);

  const nameOf = (d: CaseDocument) => {
    const id = d.company_id ?? d.individual_id;
    return id ? (props.entities.find((e) => e.id === id)?.name ?? null) : null;
  };
  const list = docs ?? [];
  const asked = chosen ?? (props.checkId ? (list.find((d) => d.check?.id === props.checkId) ?? null) : null);
  const chosenKey = typeof asked === 'string' ? asked : asked ? docKey(asked, list.indexOf(asked)) : null;
  const index = list.findIndex((d, i) => docKey(d, i) === chosenKey);
  // opened for a check that has no file yet (an identity check waiting for its images): no other
  // document in its place, which read as that check's (console walk: a company's statements shown
  // for a person's ID verification)
  const checkWithout = chosen === null && Boolean(props.checkId) && docs !== null && asked === null;
  const current = index >= 0 ? list[index] : checkWithout ? null : (list[0] ?? null);

  return (
    <div className="case-documents" data-testid="case-documents">
      <div className="case-doc-list">
        <label className="case-check-label">
          <input type="checkbox" checked={history} onChange={(e) => setHistory(e.target.checked)} />
          {t('case.docs.history')}
        </label>
        {error ? (
          <p role="alert" className="case-error">
            {error}
          </p>
        ) : null}
        {docs === null ? <p>{t('case.loading')}</p> : null}
        {docs?.length === 0 ? <p className="case-muted">{t('case.docs.none')}</p> : null}
        {checkWithout && list.length > 0 ? (
          <p className="case-muted" data-testid="case-docs-check-without">
            {t('case.docs.checkHasNone')}
          </p>
        ) : null}
        <ul>
          {list.map((d, i) => {
            const key = docKey(d, i);
            const on = current === d;
            return (
              <li key={key}>
                <button
                  type="button"
                  className={on ? 'case-doc-item is-on' : 'case-doc-item'}
                  aria-pressed={on}
                  onClick={() => setChosen(key)}
                >
                  <strong>{docName(d.name)}</strong>
                  <span className="case-muted">
                    {[
                      nameOf(d),
                      t(`case.docType.${d.type}`),
                      d.check?.version === 'history' ? t('case.docs.earlier') : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                  <span className="case-muted">
                    {t('case.docs.files', { n: d.file_ids.length })} ·{' '}
                    {formatDateTime(d.updated_at, d.type === 'case_report')}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      {current ? <DocumentView key={docKey(current, index)} doc={current} caseName={props.caseName} /> : null}
    </div>
  );
}

/** The fields of an identity check's data that hold a file id, and what that file is. */
const IDENTITY_FILES: [string, Parameters<CaseT>[0]][] = [
  ['front_file_id', 'case.docs.role.id.0'],
  ['back_file_id', 'case.docs.role.id.1'],
  ['face_file_id', 'case.docs.role.face'],
  ['video_file_id', 'case.docs.role.video'],
  ['signature_file_id', 'case.docs.role.signature'],
];

/**
 * What each file of a document is. An identity check's files are named from its data (which field
 * holds the id: the back, the video and the report are optional, so positions do not say it); a
 * signature's three files are always the document as sent, the signed document and the audit trail
 * (set together when it is signed), an earlier id_document attempt's its front and back. Other
 * files are numbered.
 */
function fileLabel(t: CaseT, doc: CaseDocument, i: number, check: LoadedCheck | null): string {
  const id = doc.file_ids[i];
  if (check && isObject(check.data.information)) {
    const info = check.data.information;
    for (const [field, key] of IDENTITY_FILES) if (info[field] === id) return t(key);
  }
  if (check && isObject(check.data.vendor) && check.data.vendor.report_file_id === id) {
    return t('case.docs.role.report');
  }
  if (doc.type === 'check__electronic_signature' && doc.file_ids.length === 3) {
    return t(`case.docs.role.signature.${i}`);
  }
  // an earlier id_document attempt: its front and back, in that order
  if (doc.type === 'check__id_document' && doc.file_ids.length === 2) return t(`case.docs.role.id.${i}`);
  return t('case.docs.file', { n: i + 1 });
}

/** A document's check as GET /v1/checks/{type}/{id} gives it: read once for its files and its data. */
type LoadedCheck = { status: string; data: { [key: string]: Json } };

function useDocumentCheck(check: CaseDocument['check']) {
  const t = useCaseT();
  const [loaded, setLoaded] = useState<LoadedCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = check?.id;
  const type = check?.type;
  useEffect(() => {
    if (!id || !type) return;
    let live = true;
    // one route per check type; the document's check type picks it
    const path = `/v1/checks/${type}/{id}` as '/v1/checks/document/{id}';
    void api.GET(path, { params: { path: { id } } }).then((res) => {
      if (!live) return;
      if (res.error || !res.data) setError(problemMessage(res.error, t));
      else setLoaded({ status: res.data.status, data: res.data.data as unknown as LoadedCheck['data'] });
    });
    return () => {
      live = false;
    };
  }, [id, type, t]);
  return { loaded, error };
}

/**
 * The day a report was generated, in the time zone it was written in (its name ends with it,
 * `Case report (Europe-Paris)`): the day its first page says, not the UTC one (a report made at 00:55
 * in Paris is the 7th, UTC still says the 6th). A zone the name does not give back (one whose own
 * name holds a hyphen) falls back to this browser's.
 */
function reportDay(doc: CaseDocument): string {
  const zone = /\(([^()]+)\)\s*$/.exec(doc.name)?.[1];
  const day = (timeZone?: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(doc.updated_at),
    );
  for (const timeZone of zone ? [zone.replaceAll('-', '/'), zone] : []) {
    try {
      return day(timeZone);
    } catch {
      // not a zone: the next spelling, then the browser's
    }
  }
  return day();
}

function DocumentView({ doc, caseName }: { doc: CaseDocument; caseName?: string }) {
  const t = useCaseT();
  const docName = useDocumentName();
  // reports of several cases, saved side by side, are told apart by their case and their day (each
  // was "Case report (Europe-Paris).pdf"); other documents are the case's own, named as listed
  const fileName =
    doc.type === 'case_report' && caseName
      ? `${caseName} - ${docName(doc.name)} - ${reportDay(doc)}`
      : docName(doc.name);
  const [file, setFile] = useState(0);
  const fileId = doc.file_ids[file] ?? doc.file_ids[0];
  const check = useDocumentCheck(doc.check);
  return (
    <div className="case-doc-view" data-testid="document-view">
      <div className="case-doc-viewer">
        {/* reports of one case share their name: the heading says when each was made, to the second
            (two made a minute apart read the same "Case report (Europe/London)") */}
        <h3>
          {docName(doc.name)}
          {doc.type === 'case_report' ? ` · ${formatDateTime(doc.updated_at, true)}` : null}
        </h3>
        {doc.file_ids.length > 1 ? (
          <fieldset className="case-doc-files">
            <legend className="case-visually-hidden">{t('case.docs.fileList')}</legend>
            {doc.file_ids.map((id, i) => (
              <button
                key={id}
                type="button"
                className="case-button"
                aria-pressed={i === file}
                onClick={() => setFile(i)}
              >
                {fileLabel(t, doc, i, check.loaded)}
              </button>
            ))}
          </fieldset>
        ) : null}
        {fileId ? <FileViewer key={fileId} fileId={fileId} name={fileName} /> : null}
      </div>
      {doc.check ? (
        <ExtractedData data={check.loaded} error={check.error} earlier={doc.check.version === 'history'} />
      ) : null}
    </div>
  );
}

function FileViewer({ fileId, name }: { fileId: string; name: string }) {
  const t = useCaseT();
  const [blob, setBlob] = useState<{ url: string; type: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    void (async () => {
      const res = await api.GET('/v1/files/{id}', {
        params: { path: { id: fileId } },
        parseAs: 'arrayBuffer',
      });
      if (!live) return;
      if (res.error || !res.data) {
        setError(problemMessage(res.error, t));
        return;
      }
      const bytes = new Uint8Array(res.data as ArrayBuffer);
      const type = sniffType(bytes.subarray(0, 16));
      url = URL.createObjectURL(new Blob([bytes], { type }));
      setBlob({ url, type });
    })();
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [fileId, t]);

  if (error)
    return (
      <p role="alert" className="case-error">
        {error}
      </p>
    );
  if (!blob) return <p aria-busy="true">{t('case.loading')}</p>;
  const download = (
    <a
      href={blob.url}
      download={`${safeFileName(name)}.${EXTENSION[blob.type] ?? 'bin'}`}
      className="case-button"
    >
      {t('case.docs.download')}
    </a>
  );
  if (!SHOWN.has(blob.type))
    return (
      <div className="case-doc-frame is-empty">
        <p>{t('case.docs.noPreview')}</p>
        {download}
      </div>
    );
  return (
    <div className="case-doc-frame" data-file-type={blob.type}>
      {blob.type === 'application/pdf' ? (
        <iframe src={blob.url} title={name} className="case-doc-pdf" />
      ) : (
        <img src={blob.url} alt={name} className="case-doc-image" />
      )}
      <p>{download}</p>
    </div>
  );
}

/**
 * What was read, from the check as the API gives it: its current attempt. An earlier attempt's own
 * results are not in the API (they stay in the check's history), so its files are shown with a line
 * saying the data beside them is the current attempt's, not theirs.
 */
function ExtractedData(props: { data: LoadedCheck | null; error: string | null; earlier: boolean }) {
  const { data, error } = props;
  const t = useCaseT();
  const shownComment = useAutomaticComment();
  const label = usePathLabel();
  const info = useMemo(() => (data ? flattenInformation(data.data.information) : []), [data]);
  const crit = useMemo(() => (data ? criteria(data.data.detailed_results) : []), [data]);
  // expected and read values: columns only when a criterion has them
  const compared = crit.some((c) => c.expected !== undefined || c.received !== undefined);
  const review = data && isObject(data.data.review) ? data.data.review : null;

  return (
    <aside className="case-doc-data" aria-label={t('case.docs.extracted')} data-testid="extracted-data">
      <h3>{t('case.docs.extracted')}</h3>
      {props.earlier ? (
        <p className="case-muted" data-testid="current-attempt-data">
          {t('case.docs.currentAttemptData')}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="case-error">
          {error}
        </p>
      ) : null}
      {data ? (
        <>
          <p>
            <span className={`case-status is-${data.status}`}>{t(`case.checkStatus.${data.status}`)}</span>
            {typeof data.data.result === 'string' ? (
              <span className="case-muted">
                {' '}
                · {t('case.docs.result', { result: t(`case.result.${data.data.result}`) })}
              </span>
            ) : null}
          </p>
          {review && typeof review.comment === 'string' ? (
            <blockquote>{shownComment(review.comment, review.reviewer_type)}</blockquote>
          ) : null}
          {info.length ? (
            <dl className="case-fields">
              {info.map(([k, v]) => (
                <div key={k}>
                  <dt>{label(k.replace(/^document_analysis\./, ''))}</dt>
                  {/* dates, countries and known values in the console's words, as the check panel says them */}
                  <dd>
                    <Value field={k.slice(k.lastIndexOf('.') + 1)} v={v} />
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="case-muted">{t('case.docs.nothingRead')}</p>
          )}
          {crit.length ? (
            <table className="case-criteria">
              <caption>{t('case.docs.criteria')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('case.docs.criterion')}</th>
                  {compared ? <th scope="col">{t('case.docs.expected')}</th> : null}
                  {compared ? <th scope="col">{t('case.docs.received')}</th> : null}
                  <th scope="col">{t('case.docs.verdict')}</th>
                </tr>
              </thead>
              <tbody>
                {crit.map((c) => (
                  <tr key={c.path}>
                    <th scope="row">{label(c.path.replace(/^document_analysis\./, ''))}</th>
                    {compared ? <td>{c.expected ?? ''}</td> : null}
                    {compared ? (
                      <td>{c.received === undefined ? '' : <Value field={c.path} v={c.received} />}</td>
                    ) : null}
                    <td>
                      <span className={`case-status is-${c.result ?? 'none'}`}>
                        {c.result ? t(`case.result.${c.result}`) : t('case.result.none')}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : error ? null : (
        <p>{t('case.loading')}</p>
      )}
    </aside>
  );
}
