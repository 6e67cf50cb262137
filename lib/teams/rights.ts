import { AppError } from "@/lib/core/errors";

// The one rights check (issue 48): every dashboard page, Server Action and API route that touches an admin-only area
// asks here. Admins do everything; members do everything with templates, the library, sends, emails and
// suppressions, and read usage. An API key's rights are its scope (lib/api/with-api-auth.ts): keys have no role.

export type Role = "admin" | "member";

export const ROLES: readonly Role[] = ["admin", "member"];

/** What only a team's admins may see or change, and how its refusal names it. */
export const ADMIN_AREAS = {
  api_keys: "API keys",
  domains: "sending domains",
  webhooks: "webhooks",
  team: "members and invitations",
  billing: "the plan and billing",
  audit_log: "the audit log",
  delete_team: "the team's deletion",
} as const;

export type AdminArea = keyof typeof ADMIN_AREAS;

/** Whether a caller may use an admin-only area: any admin, and any API key (role null), whose scope decides. */
export function canUseAdminArea(role: Role | null): boolean {
  return role === null || role === "admin";
}

export function adminRequired(area: AdminArea): AppError {
  // Deleting is not managing something: its refusal says so plainly.
  const what = area === "delete_team" ? "delete it" : `manage ${ADMIN_AREAS[area]}`;
  return new AppError("ADMIN_REQUIRED", {
    message: `Only an admin of this team can ${what}. Ask one of the team's admins.`,
  });
}

/** Throws ADMIN_REQUIRED unless the caller may use the area; nothing has changed when it throws. */
export function requireAdminArea(role: Role | null, area: AdminArea): void {
  if (!canUseAdminArea(role)) throw adminRequired(area);
}
