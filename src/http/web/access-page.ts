import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuse, ServiceError } from '../../errors.js';
import type { ModelName } from '../../oscal/model/models.js';
import { checkedGrant, checkedVisibility, type AccessChange } from '../../service/access-change.js';
import type { DocumentService } from '../../service/documents.js';
import type { AccessRecord } from '../../store/types.js';
import { documentParams } from '../params.js';
import { documentNav } from './document-nav.js';
import { html, type Html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { dataTable } from './table.js';

type Params = { model: ModelName; id: string };
type Form = Record<string, string | undefined>;

const params = documentParams();

/** The change one of the page's forms asks for, against the settings as they are now. */
function changeOf(form: Form, now: AccessRecord): AccessChange {
  switch (form.action) {
    case 'visibility':
      return { visibility: checkedVisibility(form.visibility) };
    case 'add-grant': {
      const grant = checkedGrant(form.principal?.trim(), form.permission);
      // One grant per principal: granting again changes the permission.
      return { grants: [...now.grants.filter((g) => g.principal !== grant.principal), grant] };
    }
    case 'remove-grant':
      return { grants: now.grants.filter((g) => g.principal !== form.principal) };
    default:
      throw refuse('bad-request', 'the form asks for no change this page makes');
  }
}

function accessBody(base: string, access: AccessRecord, problem?: string): Html {
  const grantRows = access.grants.map(
    (g) =>
      html`<tr>
        <td>${g.principal}</td>
        <td>${g.permission}</td>
        <td>
          <form method="post" action="${base}/access">
            <input type="hidden" name="action" value="remove-grant" />
            <input type="hidden" name="principal" value="${g.principal}" />
            <button type="submit" aria-label="Remove the grant to ${g.principal}">Remove</button>
          </form>
        </td>
      </tr>`,
  );
  const option = (value: string, label: string) =>
    html`<label
      ><input type="radio" name="visibility" value="${value}" ${access.visibility === value ? html`checked` : ''} />
      ${label}</label
    >`;
  return html`<h1>Sharing</h1>
    ${problem && html`<p class="problem" role="alert">${problem}</p>`}
    <p>
      Owner: <strong>${access.owner}</strong>${access.legalHold ? html` · <strong>under a legal hold</strong>` : ''}
    </p>
    <form method="post" action="${base}/access" class="inline-form">
      <input type="hidden" name="action" value="visibility" />
      <fieldset>
        <legend>Who may read it</legend>
        ${option('public', 'Anyone, signed in or not (public)')}
        ${option('private', 'Only its owner, admins and the grants below (private)')}
      </fieldset>
      <button type="submit">Save visibility</button>
    </form>
    <h2>Grants</h2>
    ${
      grantRows.length
        ? dataTable(['Principal', 'Permission', ''], grantRows, { caption: 'Users and groups given access' })
        : html`<p class="empty">No grants.</p>`
    }
    <form method="post" action="${base}/access" class="inline-form">
      <input type="hidden" name="action" value="add-grant" />
      <div>
        <label for="principal">User or group</label>
        <input id="principal" name="principal" required maxlength="205" placeholder="user:alice or group:auditors" />
      </div>
      <div>
        <label for="permission">Permission</label>
        <select id="permission" name="permission">
          <option value="read">read</option>
          <option value="write">write</option>
        </select>
      </div>
      <button type="submit">Grant</button>
    </form>`;
}

/** GET and POST /documents/<model>/<id>/access: visibility and grants, for the owner and admins (as the API's access settings). */
export function accessRoutes(app: FastifyInstance, deps: { documents: DocumentService; signIn: SignInMode }): void {
  const { documents, signIn } = deps;

  async function show(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, problem?: string) {
    const { model, id } = request.params;
    const access = await documents.access(request.identity, model, id);
    const { doc, rights } = await documents.readable(request.identity, model, id);
    const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'sharing' })}
    ${accessBody(`/documents/${model}/${id}`, access, problem)}`;
    const page = { title: `Sharing of ${doc.title}`, identity: request.identity, signIn, body };
    return sendPage(reply, page, problem ? { status: 400, caching: 'no-store' } : {});
  }

  app.get<{ Params: Params }>('/documents/:model/:id/access', { schema: { hide: true, params } }, (request, reply) =>
    show(request, reply),
  );

  app.post<{ Params: Params; Body: Form | undefined }>(
    '/documents/:model/:id/access',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const now = await documents.access(request.identity, model, id);
      try {
        await documents.setAccess(request.identity, model, id, changeOf(request.body ?? {}, now));
      } catch (e) {
        if (e instanceof ServiceError && e.status === 400) return show(request, reply, e.message);
        throw e;
      }
      return reply.code(303).header('location', `/documents/${model}/${id}/access`).send();
    },
  );
}
