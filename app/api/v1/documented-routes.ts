import * as emails from "./emails/route";
import * as email from "./emails/[id]/route";
import * as cancelEmail from "./emails/[id]/cancel/route";
import * as library from "./library/route";
import * as send from "./send/route";
import * as sendBatch from "./send/batch/route";
import * as suppressions from "./suppressions/route";
import * as suppression from "./suppressions/[email]/route";
import * as templates from "./templates/route";
import * as template from "./templates/[id]/route";
import * as render from "./templates/[id]/render/route";
import * as source from "./templates/[id]/source/route";
import * as usage from "./usage/route";
import type { DocumentedRoutes } from "@/lib/openapi";

/** Every documented route by its path under /api/v1: what the OpenAPI document and /docs are built from. */
export const DOCUMENTED_ROUTES: DocumentedRoutes = {
  "/library": library,
  "/templates": templates,
  "/templates/{id}": template,
  "/templates/{id}/render": render,
  "/templates/{id}/source": source,
  "/send": send,
  "/send/batch": sendBatch,
  "/emails": emails,
  "/emails/{id}": email,
  "/emails/{id}/cancel": cancelEmail,
  "/suppressions": suppressions,
  "/suppressions/{email}": suppression,
  "/usage": usage,
};
