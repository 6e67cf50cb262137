import "server-only";
import { z } from "zod";
import { createTeam, listPersonTeams, type Account } from "@/lib/auth/data/accounts";
import { AppError } from "@/lib/core/errors";
import { holdsNul } from "@/lib/core/schemas";
import type { Role } from "@/lib/teams/rights";

// A person's teams: the switcher's list and choice, and a new team of their own (issue 48).

export const teamNameSchema = z
  .string()
  .trim()
  .min(1, "Name the team")
  .max(100, "Use at most 100 characters")
  .refine((name) => !holdsNul(name), "Use letters, digits and punctuation: not the NUL character");

export const personTeams = (personId: string): Promise<(Account & { role: Role })[]> => listPersonTeams(personId);

/** The team a person asked to switch to, when they are its member; else NOT_FOUND (nothing is switched). */
export async function teamToSwitchTo(personId: string, teamId: string): Promise<Account> {
  const team = (await listPersonTeams(personId)).find((one) => one.id === teamId);
  if (!team) throw new AppError("NOT_FOUND", { message: "You are not a member of that team." });
  return team;
}

/** A new team whose admin is the person who creates it. */
export async function createOwnTeam(personId: string, name: string): Promise<Account> {
  return createTeam(personId, teamNameSchema.parse(name));
}
