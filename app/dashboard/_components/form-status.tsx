import type { ActionState } from "../_lib/action";

/** Under a dashboard form: its action's message, announced, in red on an error; nothing before the first submit. */
export function FormStatus({ state, shown = true }: { state: ActionState; shown?: boolean }) {
  return (
    <span aria-live="polite" className={state.status === "error" ? "field-error" : "hint"}>
      {state.status !== "idle" && shown ? state.message : null}
    </span>
  );
}
