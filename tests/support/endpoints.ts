import { GET as getLibrary } from "@/app/api/v1/library/route";
import { GET as getTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import type { CallOptions } from "./api";

export type Endpoint = {
  name: string;
  handler: (...args: any[]) => Promise<Response>;
  path: (templateId: string) => string;
  options: (templateId: string) => CallOptions;
  metered: boolean;
};

/** Every authenticated /api/v1 endpoint, so tables of cases can run against all of them. */
export const endpoints: Endpoint[] = [
  { name: "GET /library", handler: getLibrary, path: () => "/api/v1/library", options: () => ({}), metered: true },
  {
    name: "POST /templates/{id}/render",
    handler: postRender,
    path: (id) => `/api/v1/templates/${id}/render`,
    options: (id) => ({ method: "POST", params: { id }, body: {} }),
    metered: true,
  },
  {
    name: "GET /templates/{id}",
    handler: getTemplate,
    path: (id) => `/api/v1/templates/${id}`,
    options: (id) => ({ params: { id } }),
    metered: false,
  },
  {
    name: "GET /templates/{id}/source",
    handler: getSource,
    path: (id) => `/api/v1/templates/${id}/source`,
    options: (id) => ({ params: { id } }),
    metered: false,
  },
  { name: "GET /usage", handler: getUsage, path: () => "/api/v1/usage", options: () => ({}), metered: false },
];
