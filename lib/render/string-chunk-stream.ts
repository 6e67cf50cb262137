/**
 * Injected (esbuild `inject`) into the catalogue render worker's bundle, where react-dom/server is the production
 * browser build with the sandbox's string-chunk patch (scripts/build-sandbox-runtime.ts): Fizz then hands over its
 * markup as strings instead of encoding every piece to UTF-8 bytes that would only be decoded again, which is most
 * of what a render costs beyond React itself. Same Fizz algorithm, so the same markup (tests/render.test.ts checks
 * it against render() for every catalogue template).
 *
 * Only the sandbox shims that stream needs, never its timers or task queue: the worker runs on Node's own. With no
 * output limit set, the guard lets everything through.
 */
export { ReadableStream, __sbxGuardText, __sbxUtf8Length } from "./sandbox/runtime-shims";
