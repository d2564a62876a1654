import { unwrap } from '@social/sdk';
import { useEffect } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';

const STATUS_CLASS = { pending: 'warning', succeeded: 'success', failed: 'danger' } as const;

/** A webhook's delivery log, newest first; refreshed every few seconds while one is pending; redeliver one. */
export function Deliveries({ webhookId, version }: { webhookId: string; version: number }) {
  const api = useApi();
  const deliveries = useQuery(`${webhookId}:${version}`, (signal) =>
    unwrap(api.GET('/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { limit: 20 } }, signal })),
  );
  const pending = deliveries.data?.deliveries.some((delivery) => delivery.status === 'pending');
  const { reload } = deliveries;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, 2_000);
    return () => clearTimeout(timer);
  }, [pending, reload, deliveries.data]);
  const redeliver = useAction(async (deliveryId: string) => {
    await unwrap(
      api.POST('/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id: webhookId, delivery_id: deliveryId } } }),
    );
    reload();
  });
  return (
    <div className="panel full">
      <h3>Deliveries</h3>
      <ProblemMessage error={deliveries.error ?? redeliver.error} />
      {deliveries.loading && !deliveries.data && <Loading />}
      {deliveries.data?.deliveries.length === 0 && <p className="meta">Nothing was sent yet.</p>}
      <ul className="rows" aria-label="Deliveries">
        {deliveries.data?.deliveries.map((delivery) => (
          <li key={delivery.id} className="row">
            <div className="row-main">
              <p>
                {delivery.event_type} <span className={`badge ${STATUS_CLASS[delivery.status]}`}>{delivery.status}</span>
              </p>
              <p className="meta">
                {formatDateTime(delivery.created_at)} · {delivery.attempts} attempts
                {delivery.last_status_code > 0 && ` · answered ${delivery.last_status_code}`}
                {delivery.last_error && ` · ${delivery.last_error}`}
                {delivery.next_attempt_at && ` · next attempt ${formatDateTime(delivery.next_attempt_at)}`}
              </p>
            </div>
            <button type="button" onClick={() => redeliver.run(delivery.id)} disabled={redeliver.pending}>
              Redeliver
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
