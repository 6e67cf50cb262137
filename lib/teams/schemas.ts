import { z } from "zod";
import { MAX_ADDRESS_LENGTH } from "@/lib/core/limits";
import { PLAN_NAMES } from "@/lib/core/plans";
import { ROLES } from "@/lib/teams/rights";
import { component } from "@/lib/core/openapi-components";

// What Settings → Team's forms accept.

export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .max(MAX_ADDRESS_LENGTH, `Use an email address of at most ${MAX_ADDRESS_LENGTH} characters`)
    .toLowerCase()
    .pipe(z.email({ error: "Enter a valid email address" })),
  role: z.enum(ROLES as ["admin", "member"], { error: "Choose admin or member" }),
});

export const roleSchema = z.enum(ROLES as ["admin", "member"], { error: "Choose admin or member" });

export const idSchema = z.uuid({ error: "Unknown member or invitation" });

/** Invitation links work for 7 days. */
export const INVITATION_DAYS = 7;

/** The team a session opens, chosen by the team switcher or an accepted invitation; each request checks membership. */
export const TEAM_COOKIE = "lp-team";

const roleField = z.enum(ROLES as ["admin", "member"]);

export const teamResponseSchema = z
  .object({
    success: z.literal(true),
    team: z.object({
      id: z.uuid(),
      name: z.string(),
      plan: z.enum(PLAN_NAMES),
      created_at: z.iso.datetime(),
    }),
    members: z.array(
      z.object({
        id: z.uuid().meta({ description: "The person's id" }),
        email: z.string(),
        role: roleField,
        joined_at: z.iso.datetime(),
      }),
    ),
    invitations: z
      .array(
        z.object({
          id: z.uuid(),
          email: z.string(),
          role: roleField,
          created_at: z.iso.datetime(),
          expires_at: z.iso.datetime(),
        }),
      )
      .meta({ description: "Pending invitations only (neither accepted, revoked nor expired)" }),
  })
  .meta({ id: "TeamResponse" })
  .apply(component);
