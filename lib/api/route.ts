import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { API_METHODS, type ApiMethod, type Operation, type SuccessBody } from "@/lib/api/contract/define";
import {
  withApiAuth,
  withErrorHandling,
  type Caller,
  type HandlerContext,
  type Infer,
  type RouteContext,
} from "@/lib/api/with-api-auth";
import { AppError, errors } from "@/lib/core/errors";
import { requireAdminArea } from "@/lib/teams/rights";

// How a route file is made: each method's handler (an operation of the contract implemented, or any other), and one
// answer for the methods it does not serve.

type PathParameters<O extends Operation> = Record<keyof O["pathParameters"], string>;

/**
 * The handler of an operation. It answers the declared success body, which the compiler checks against the
 * operation's schema, or a NextResponse of that body (for its headers, or a body serialized elsewhere).
 */
export type OperationHandler<O extends Operation> = (
  context: Omit<HandlerContext<Infer<O["query"]>, Infer<O["body"]>>, "params"> & { params: PathParameters<O> },
) => Promise<SuccessBody<O> | NextResponse<SuccessBody<O>>>;

type RouteHandler = (request: NextRequest, context?: RouteContext) => Promise<Response>;

/**
 * A route handler that implements an operation: withApiAuth with the operation's options, answering its status. An
 * operation of an admin-only area refuses a member's session (lib/teams/rights.ts) before its handler runs.
 */
export function implement<O extends Operation>(operation: O, handler: NoInfer<OperationHandler<O>>) {
  const { metered, sendingAccess, query, body, notFound = "NOT_FOUND", adminArea, success } = operation;
  const route = withApiAuth(
    {
      metered,
      sendingAccess,
      query,
      body,
      notFound: () => new AppError(notFound),
      ...(adminArea && { admit: async (caller: Caller) => requireAdminArea(caller.role, adminArea) }),
    },
    async (context) => {
      // The route's file sits at the operation's path, so Next's params are the path parameters it declares.
      const response = await handler(context as Parameters<OperationHandler<O>>[0]);
      return response instanceof Response ? response : NextResponse.json(response, { status: success.status });
    },
  );
  return Object.assign(route, { operation });
}

/**
 * Every method a route file exports: the handlers it is given, and for the others a 405 METHOD_NOT_ALLOWED with an
 * `Allow` header (Next's own 405 is bare). OPTIONS answers with the methods the route serves (Next's would list every
 * exported method, these 405s included). A contract operation's handler must be given under its own method.
 */
export function routeHandlers(handlers: {
  [M in ApiMethod]?: RouteHandler & { operation?: { method: M } };
}): Record<ApiMethod | "OPTIONS", RouteHandler> {
  const served = API_METHODS.filter((method) => handlers[method]);
  const allowed = served.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
  const otherMethods = withErrorHandling(async (request) => {
    if (request.method === "OPTIONS")
      return new Response(null, { status: 204, headers: { Allow: [...allowed, "OPTIONS"].join(", ") } });
    throw errors.methodNotAllowed(allowed);
  });
  const byMethod = Object.fromEntries(API_METHODS.map((method) => [method, handlers[method] ?? otherMethods]));
  return { ...(byMethod as Record<ApiMethod, RouteHandler>), OPTIONS: otherMethods };
}
