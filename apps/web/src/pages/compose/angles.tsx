import { unwrap, type Schema } from '@social/sdk';
import { useApi } from '../../session/session';
import { useAction } from '../../api/use-action';
import { ProblemMessage } from '../../ui/problem-message';
import { useWorkspace } from '../../workspace/workspace';
import { useCallback, useState } from 'react';

type Angle = Schema<'PublicationAngle'>;

/** The AI proposes three to five ways to tell the idea; one click puts an angle's hook and thesis into the text. */
export function Angles({ idea, targets, onUse }: { idea: string; targets: string[]; onUse(text: string): void }) {
  const api = useApi();
  const { workspace } = useWorkspace();
  const [angles, setAngles] = useState<Angle[]>([]);
  const propose = useAction(
    useCallback(async () => {
      const answer = await unwrap(
        api.POST('/publication-builds/angles', { body: { workspace_id: workspace.id, idea, account_ids: targets } }),
      );
      setAngles(answer.angles);
    }, [api, workspace.id, idea, targets]),
  );
  return (
    <div className="angles">
      <button type="button" onClick={() => void propose.run()} disabled={propose.pending || idea.trim() === ''}>
        {propose.pending ? 'Thinking…' : 'Suggest angles'}
      </button>
      <ProblemMessage error={propose.error} title="No angles this time." />
      {angles.length > 0 && (
        <ul className="angle-list" aria-label="Suggested angles">
          {angles.map((angle) => (
            <li key={angle.id}>
              <p>
                <strong>{angle.label}</strong>: {angle.hook}
              </p>
              <p className="muted">{angle.thesis}</p>
              <button type="button" onClick={() => onUse([angle.hook, angle.thesis].filter(Boolean).join('\n\n'))}>
                Use “{angle.label}”
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
