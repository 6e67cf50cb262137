import { defineOperation } from "@/lib/api/contract/define";
import { teamResponseSchema } from "@/lib/teams/schemas";

export const getTeam = defineOperation({
  method: "GET",
  path: "/team",
  operationId: "getTeam",
  summary: "Your team: its members and pending invitations (managed in the dashboard only)",
  metered: false,
  adminArea: "team",
  success: { status: 200, description: "The team, its members and pending invitations", schema: teamResponseSchema },
});
