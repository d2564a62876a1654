import { unwrap, type Schema } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { Deliveries } from './webhook-deliveries';

type Webhook = Schema<'Webhook'>;
type EventType = Webhook['events'][number];

const EVENTS: { value: EventType; label: string }[] = [
  { value: 'publication.published', label: 'A publication was published' },
  { value: 'publication.failed', label: 'A publication failed' },
  { value: 'rendition.published', label: "One account's post was published" },
  { value: 'rendition.failed', label: "One account's post failed" },
  { value: 'rendition.needs_attention', label: "One account's post needs attention" },
  { value: 'account.needs_attention', label: 'An account needs attention' },
  { value: 'media.ready', label: 'A media item is ready' },
  { value: '*', label: 'Every event, including future ones' },
];

/** Signed HTTP callbacks of the workspace's events (workspace admins): create, test, rotate, deliveries, delete. */
export default function WebhooksPage() {
  const api = useApi();
  const { workspace, canAdminister } = useWorkspace();
  const webhooks = useQuery(canAdminister ? workspace.id : null, () =>
    unwrap(api.GET('/webhooks', { params: { query: { workspace_id: workspace.id } } })),
  );
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const showSecret = (created: Schema<'WebhookCreated'>) => setSecret({ url: created.item.url, secret: created.secret });

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Webhooks</h1>
      {!canAdminister ? (
        <EmptyState title="Only the workspace's admins manage webhooks" />
      ) : (
        <>
          <CreateWebhook
            onCreated={(created) => {
              showSecret(created);
              webhooks.reload();
            }}
          />
          {secret && (
            <div className="secret" role="status">
              <p>The signing secret of {secret.url}. Copy it now: it is never shown again.</p>
              <code aria-label="The signing secret">{secret.secret}</code>
            </div>
          )}
          <ProblemMessage error={webhooks.error} />
          {webhooks.loading && !webhooks.data && <Loading />}
          {webhooks.data?.webhooks.length === 0 && <EmptyState title="No webhooks yet" />}
          <ul className="rows" aria-label="Webhooks">
            {webhooks.data?.webhooks.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} onChanged={webhooks.reload} onSecret={showSecret} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function CreateWebhook({ onCreated }: { onCreated(created: Schema<'WebhookCreated'>): void }) {
  const api = useApi();
  const { workspace } = useWorkspace();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const create = useAction(async () => {
    const body = { workspace_id: workspace.id, url: url.trim(), events, description };
    onCreated(await unwrap(api.POST('/webhooks', { body })));
    setUrl('');
    setDescription('');
    setEvents([]);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <form className="panel stack" onSubmit={submit} aria-label="Add a webhook">
      <h2>Add a webhook</h2>
      <Field
        label="URL"
        name="url"
        type="url"
        required
        placeholder="https://"
        value={url}
        error={create.error}
        onChange={(e) => setUrl(e.target.value)}
      />
      <Field
        label="Description"
        name="description"
        maxLength={200}
        value={description}
        error={create.error}
        onChange={(e) => setDescription(e.target.value)}
      />
      <fieldset className="checks">
        <legend>Events</legend>
        {EVENTS.map((item) => (
          <label key={item.value}>
            <input
              type="checkbox"
              checked={events.includes(item.value)}
              onChange={(event) =>
                setEvents((all) => (event.target.checked ? [...all, item.value] : all.filter((value) => value !== item.value)))
              }
            />
            {item.label}
          </label>
        ))}
      </fieldset>
      <ProblemMessage error={create.error} />
      <div>
        <button type="submit" className="primary" disabled={create.pending}>
          Add webhook
        </button>
      </div>
    </form>
  );
}

function WebhookRow({
  webhook,
  onChanged,
  onSecret,
}: {
  webhook: Webhook;
  onChanged(): void;
  onSecret(created: Schema<'WebhookCreated'>): void;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [deliveriesVersion, setDeliveriesVersion] = useState(0);
  const path = { params: { path: { id: webhook.id } } };
  const test = useAction(async () => {
    await unwrap(api.POST('/webhooks/{id}/test', path));
    setOpen(true);
    setDeliveriesVersion((value) => value + 1);
  });
  const rotate = useAction(async () => onSecret(await unwrap(api.POST('/webhooks/{id}/rotate-secret', path))));
  const toggle = useAction(async () => {
    await unwrap(api.PATCH('/webhooks/{id}', { ...path, body: { active: !webhook.active } }));
    onChanged();
  });
  const remove = useAction(async () => {
    await unwrap(api.DELETE('/webhooks/{id}', path));
    onChanged();
  });
  const labels = webhook.events.map((value) => EVENTS.find((item) => item.value === value)?.label ?? value);
  return (
    <li className="row">
      <div className="row-main">
        <p>
          <strong>{webhook.url}</strong>{' '}
          <span className={`badge ${webhook.active ? 'success' : 'warning'}`}>{webhook.active ? 'Active' : 'Inactive'}</span>
        </p>
        {webhook.description && <p>{webhook.description}</p>}
        <p className="meta">
          {labels.join('; ')} · added {formatDateTime(webhook.created_at)}
        </p>
      </div>
      <div className="row-actions">
        <button type="button" onClick={() => test.run()} disabled={test.pending} aria-label={`Send test to ${webhook.url}`}>
          Send test
        </button>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={`Deliveries of ${webhook.url}`}>
          Deliveries
        </button>
        <button type="button" onClick={() => rotate.run()} disabled={rotate.pending}>
          Rotate secret
        </button>
        <button type="button" onClick={() => toggle.run()} disabled={toggle.pending}>
          {webhook.active ? 'Deactivate' : 'Activate'}
        </button>
        <ConfirmButton confirmLabel={`Confirm: delete the webhook ${webhook.url}`} onConfirm={() => remove.run()}>
          Delete
        </ConfirmButton>
      </div>
      <ProblemMessage error={test.error ?? rotate.error ?? toggle.error ?? remove.error} />
      {open && <Deliveries webhookId={webhook.id} version={deliveriesVersion} />}
    </li>
  );
}
