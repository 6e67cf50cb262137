// Scripts (CLI, migrations, bench) run lib/ modules outside React's server environment, where `server-only` throws
// on import by design. Resolve it to an empty module here, the same thing the react-server condition does.
import { register } from "node:module";

const hook = `export async function resolve(specifier, context, next) {
  if (specifier === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
