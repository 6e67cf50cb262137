import { EMAIL_CLIENTS, type CompatibilityFinding } from "@/lib/render/analysis/warnings";
import { CardSection } from "./card-section";

/**
 * Email client support of a rendered template (lib/render/analysis/compatibility.ts): per client, the features it does
 * not support, supports in part, or supports where others do not; each with the elements it was found on and a link to
 * its caniemail page. `source` says what was rendered; `findings` null: the check was skipped (it ran past its
 * deadline).
 */
export function CompatibilityPanel({ findings, source }: { findings: CompatibilityFinding[] | null; source: string }) {
  return (
    <CardSection headingId="compatibility-heading" title="Email client support" testId="compatibility">
      <div className="card-body stack-sm">
        <p className="muted small">
          {findings === null
            ? `The check of ${source} was skipped: its HTML took too long to check.`
            : findings.length === 0
              ? `Every client shows ${source} as written: nothing in its HTML is missing from one of them.`
              : `What ${source} uses that a client does not show as written, from the caniemail data set.`}
        </p>
        {findings !== null &&
          findings.length > 0 &&
          Object.values(EMAIL_CLIENTS).map((client) => {
            const none = findings.filter((finding) => finding.unsupported.includes(client));
            const partial = findings.filter((finding) => finding.partial.includes(client));
            const full = findings.filter(
              (finding) => !finding.unsupported.includes(client) && !finding.partial.includes(client),
            );
            return (
              <details key={client} data-testid="compatibility-client">
                <summary>
                  <strong>{client}</strong>{" "}
                  <span className="muted small">
                    {none.length} not supported, {partial.length} partly supported, {full.length} supported
                  </span>
                </summary>
                <Findings heading="Not supported" findings={none} />
                <Findings heading="Partly supported" findings={partial} />
                <Findings heading="Supported" findings={full} />
              </details>
            );
          })}
      </div>
    </CardSection>
  );
}

function Findings({ heading, findings }: { heading: string; findings: CompatibilityFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <>
      <h3 className="small">{heading}</h3>
      <ul className="small">
        {findings.map((finding) => (
          <li key={finding.feature}>
            <a href={finding.url} target="_blank" rel="noreferrer">
              {finding.feature}
            </a>
            {finding.elements.length > 0 && (
              <>
                {" "}
                on{" "}
                {finding.elements.map((element, i) => (
                  <span key={element}>
                    {i > 0 && ", "}
                    <code>{element}</code>
                  </span>
                ))}
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
