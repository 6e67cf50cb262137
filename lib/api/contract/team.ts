import { defineOperation } from "@/lib/api/contract/define";
import { teamResponseSchema } from "@/lib/teams/schemas";

export const getTeam = defineOperation({
  method: "GET",
  path: "/team",
  operationId: "getTeam",
  summary: "Your team: its members and pending invitations (managed in the dashboard only)",
  metered: false,
  success: { status: 200, description: "The team, its members and pending invitations", schema: teamResponseSchema },
  errors: ["ADMIN_REQUIRED"],
  errorDescriptions: { ADMIN_REQUIRED: "A member's browser session: only the team's admins see its members" },
});
