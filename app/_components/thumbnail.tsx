/** A template's preview: its preview image when it has one, else the template itself, scaled into the card. */
export function Thumbnail({ id, name, previewUrl }: { id: string; name: string; previewUrl: string | null }) {
  return (
    // `inert`: the scaled document is decoration; its links must not take keyboard focus or reach screen readers.
    <div className="thumb-frame" inert>
      {previewUrl ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={previewUrl} alt="" loading="lazy" />
      ) : (
        <iframe
          src={`/api/dashboard/templates/${id}/thumbnail`}
          sandbox=""
          loading="lazy"
          title={`Preview of ${name}`}
          tabIndex={-1}
          scrolling="no"
        />
      )}
    </div>
  );
}
