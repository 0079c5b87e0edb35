/**
 * The top of a settings list page: its heading, the button that opens the "new" form (given only to
 * those who may create: the pages pass it to admins) and the page's hint below.
 */
export function SettingsHead(props: { title: string; hint: string; newLabel: string; onNew?: () => void }) {
  return (
    <>
      <div className="settings-head">
        <h2>{props.title}</h2>
        {props.onNew ? (
          <button type="button" className="primary" onClick={props.onNew}>
            {props.newLabel}
          </button>
        ) : null}
      </div>
      <p className="settings-hint">{props.hint}</p>
    </>
  );
}
