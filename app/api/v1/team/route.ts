import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { teamOverview } from "@/lib/teams/service";

// GET /api/v1/team – the team, its members and pending invitations (not metered; a member's session is refused)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getTeam, async ({ caller }) => ({ success: true, ...(await teamOverview(caller)) })),
});
