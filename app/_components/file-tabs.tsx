/**
 * A template's (or a shared component's: `label`) files as tabs, the entry marked when there are others. `idPrefix`
 * names each tab's id (`<idPrefix>-<path>`), which the panel `panelId` is labelled by.
 */
export function FileTabs({
  paths,
  active,
  entry,
  idPrefix,
  panelId,
  onSelect,
  label = "Files of the template",
}: {
  paths: string[];
  active: string;
  entry: string;
  idPrefix: string;
  panelId: string;
  onSelect: (path: string) => void;
  label?: string;
}) {
  return (
    // Wrapped onto rows rather than scrolled: a template's code and its locales' messages files outgrow a phone's width.
    <div className="tabs" role="tablist" aria-label={label} style={{ flexWrap: "wrap" }}>
      {paths.map((path) => (
        <button
          key={path}
          type="button"
          role="tab"
          className="tab"
          id={`${idPrefix}-${path}`}
          aria-selected={path === active}
          aria-controls={panelId}
          onClick={() => onSelect(path)}
        >
          {path}
          {path === entry && paths.length > 1 && <span className="label-optional"> (entry)</span>}
        </button>
      ))}
    </div>
  );
}
