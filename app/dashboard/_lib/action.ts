import "server-only";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { runAsActor } from "@/lib/audit/context";
import { requireAccount } from "@/lib/auth/current";
import { AppError } from "@/lib/core/errors";
import { adminRequired, canUseAdminArea, type AdminArea } from "@/lib/teams/rights";

// The one way a dashboard Server Action runs: the signed-in account (Server Actions are public endpoints, so each
// re-checks the session; Next refuses a cross-origin POST to them, and proxy.ts one without Origin), whose rights are
// its own: every service call is scoped to its id → the form read
// and checked → the change, through the lib/ service the API and CLI make it with → the pages that show it
// revalidated → the form's message. The actions themselves (each route folder's actions.ts) only say what each step is.

export type ActionState = {
  status: "idle" | "success" | "error";
  message?: string;
  fields?: Record<string, string>;
  /** What was submitted, given back on an error: React resets a form after its action, to these values. */
  values?: Record<string, string>;
};

/** The signed-in account an action acts for. */
export type SignedInAccount = Awaited<ReturnType<typeof requireAccount>>;

/**
 * What a form shows for a failed action: an AppError's message (lib/core/errors.ts); anything else is a bug, logged,
 * and shown as the generic message. Next's own control flow (redirect, notFound) is rethrown.
 */
export function formMessage(error: unknown): string {
  unstable_rethrow(error);
  if (error instanceof AppError) return error.message;
  console.error(
    JSON.stringify({
      level: "error",
      message: "dashboard action failed",
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    }),
  );
  return "Something went wrong on our side. Please try again in a moment.";
}

const REFUSED = Symbol("refused");

/** An answer that is not a change (a field to correct, something gone meanwhile): nothing is revalidated. */
export type Refusal<State> = { readonly [REFUSED]: State };

export const refuse = <State>(state: State): Refusal<State> => ({ [REFUSED]: state });

export function isRefusal<State>(value: unknown): value is Refusal<State> {
  return typeof value === "object" && value !== null && REFUSED in value;
}

/** A page revalidatePath refreshes, or ("layout") every page under it. */
export type Revalidation = string | readonly [path: string, type: "layout"];

export type ActionSteps<Submitted, Input, Result, State> = {
  /** The page sign-in comes back to. */
  page: string | ((submitted: Submitted) => string);
  /**
   * An admin-only area (lib/teams/rights.ts): a member's action is refused before the form is read, and nothing
   * changes: `denied`'s state, or the refusal thrown.
   */
  area?: AdminArea;
  denied?: (error: AppError) => State;
  /** What was submitted, read and checked (looked up, when it names something): the change's input, or a refusal. */
  input: (submitted: Submitted, account: SignedInAccount) => Input | Refusal<State> | Promise<Input | Refusal<State>>;
  /** The change, through the service function the API makes it with (or a refusal). */
  run: (account: SignedInAccount, input: Input) => Promise<Result | Refusal<State>>;
  /** A change that threw (Next's redirect is rethrown before): the form's state. */
  refused: (error: unknown, input: Input) => State;
  /** The pages that show the change, refreshed in this order before `done`. */
  revalidate?: readonly Revalidation[];
  /** Refreshes them after a thrown refusal too (the page then shows why it was refused). */
  revalidateRefused?: boolean;
  /** The form's state after the change, or a redirect. */
  done: (result: Result, input: Input) => State;
};

export async function runAction<Submitted, Input, Result, State>(
  submitted: Submitted,
  steps: ActionSteps<Submitted, Input, Result, State>,
): Promise<State> {
  const account = await requireAccount(typeof steps.page === "function" ? steps.page(submitted) : steps.page);
  if (steps.area && !canUseAdminArea(account.role)) {
    if (steps.denied) return steps.denied(adminRequired(steps.area));
    throw adminRequired(steps.area);
  }
  const input = await steps.input(submitted, account);
  if (isRefusal<State>(input)) return input[REFUSED];
  let result: Result | Refusal<State>;
  const actor = { type: "user", id: account.person.id, label: account.person.email } as const;
  const ip = await requestAddress();
  try {
    result = await runAsActor({ actor, ip }, () => steps.run(account, input));
  } catch (error) {
    unstable_rethrow(error);
    if (steps.revalidateRefused) revalidate(steps.revalidate);
    return steps.refused(error, input);
  }
  if (isRefusal<State>(result)) return result[REFUSED];
  revalidate(steps.revalidate);
  return steps.done(result, input);
}

/** The client's address for the audit log; none when the action is called outside a request (the CLI, tests). */
async function requestAddress(): Promise<string | null> {
  try {
    return clientAddress(await headers());
  } catch {
    return null;
  }
}

function revalidate(paths: readonly Revalidation[] = []): void {
  for (const path of paths) {
    if (typeof path === "string") revalidatePath(path);
    else revalidatePath(path[0], path[1]);
  }
}

/** runAction for a form whose state is an ActionState: a thrown refusal shows formMessage's message by default. */
export function formAction<Input, Result, State extends ActionState>(
  form: FormData,
  steps: Omit<ActionSteps<FormData, Input, Result, State>, "refused"> & {
    refused?: (error: unknown, input: Input) => State;
  },
): Promise<State> {
  return runAction(form, {
    refused: (error) => ({ status: "error", message: formMessage(error) }) as State,
    denied: (error) => ({ status: "error", message: error.message }) as State,
    ...steps,
  });
}

/** A field of the form as text ("" when it was not posted). */
export const field = (form: FormData, name: string, fallback = ""): string => String(form.get(name) ?? fallback);

/** The issues of a failed zod parse by field, the first issue of each. */
export function fieldMessages(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[String(issue.path[0])] ??= issue.message;
  return fields;
}

// PostgreSQL's text cannot hold the NUL character: a field holding one is refused before anything is stored.
export const NUL_MESSAGE = "Use letters, digits and punctuation: not the NUL character";
