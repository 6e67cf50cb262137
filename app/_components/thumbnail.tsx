"use client";
import { useState, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * A template's preview: its preview image when it has one, else the template itself, scaled into the card. Until it
 * has loaded, a placeholder shaped like an email stands in its place.
 */
export function Thumbnail({ id, name, previewUrl }: { id: string; name: string; previewUrl: string | null }) {
  const [loaded, setLoaded] = useState(false);
  // The iframe is made in the browser, so its load event cannot pass before React listens for it (a sandboxed
  // document's state cannot be read afterwards). Not lazy: made lazy by script, the frames below a phone's first screen
  // did not load in Chromium.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    // `inert`: the scaled document is decoration; its links must not take keyboard focus or reach screen readers.
    <div className="thumb-frame" inert data-loaded={loaded || undefined}>
      {!loaded && (
        <div className="thumb-placeholder" aria-hidden="true" data-testid="thumb-placeholder">
          <span />
          <span />
          <span />
          <span />
        </div>
      )}
      {previewUrl ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={previewUrl}
          alt=""
          loading="lazy"
          onLoad={() => setLoaded(true)}
          // Rendered on the server, the image may have loaded before React listened.
          ref={(image) => {
            if (image?.complete && image.naturalWidth > 0) setLoaded(true);
          }}
        />
      ) : (
        inBrowser && (
          <iframe
            src={`/api/dashboard/templates/${id}/thumbnail`}
            sandbox=""
            title={`Preview of ${name}`}
            tabIndex={-1}
            scrolling="no"
            onLoad={() => setLoaded(true)}
          />
        )
      )}
    </div>
  );
}
