"use client";

import { useActionState } from "react";
import { SubmitButton } from "../_components/submit-button";
import { FormStatus } from "./_components/form-status";
import { createTeamAction, switchTeamAction } from "./teams/actions";

/** In the navigation: the person's teams, the current one chosen, and "Create a team". */
export function TeamSwitcher({ teams, current }: { teams: { id: string; name: string }[]; current: string }) {
  const [switched, switchTeam] = useActionState(switchTeamAction, { status: "idle" });
  const [created, createTeam] = useActionState(createTeamAction, { status: "idle" });
  return (
    <div className="team-switcher stack-sm">
      {teams.length > 1 && (
        <form action={switchTeam} className="row">
          <label className="sr-only" htmlFor="team-switcher">
            Team
          </label>
          <select id="team-switcher" name="team" defaultValue={current} className="input input-sm">
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
          <SubmitButton className="btn btn-ghost btn-sm">Switch</SubmitButton>
          <FormStatus state={switched} />
        </form>
      )}
      <details>
        <summary className="small">Create a team</summary>
        <form action={createTeam} className="row">
          <label className="sr-only" htmlFor="new-team-name">
            Team name
          </label>
          <input
            id="new-team-name"
            name="name"
            className="input input-sm"
            maxLength={100}
            required
            defaultValue={created.values?.name}
            placeholder="Team name"
          />
          <SubmitButton className="btn btn-ghost btn-sm">Create</SubmitButton>
          <FormStatus state={created} />
        </form>
      </details>
    </div>
  );
}
