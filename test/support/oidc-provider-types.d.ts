/** The little of oidc-provider (which ships no types) that the test provider process uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** The request handler (oidc-provider is a Koa application). */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}
