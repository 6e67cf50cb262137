import "server-only";
import { findTemplateForAccount, listLibrary } from "@/lib/templates/data/templates";

// What other domains read of a template (rendering, sending, the library, the dashboard's previews): the records as
// stored, passed through. Writing one is user-templates.ts.
export { findTemplateForAccount, listLibrary };
export type { RenderedVersion, TemplateRecord, VersionChoice } from "@/lib/templates/data/templates";
