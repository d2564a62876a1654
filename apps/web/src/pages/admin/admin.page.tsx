import { useState } from 'react';
import '../../styles/manage.css';
import { AiPrompts } from './ai-prompts';
import { InstanceSettings } from './instance-settings';
import { Overview } from './overview';
import { ProviderApps } from './provider-apps';
import { Users } from './users';

const SECTIONS = [
  { id: 'overview', label: 'Overview', view: Overview },
  { id: 'settings', label: 'Instance settings', view: InstanceSettings },
  { id: 'providers', label: 'Provider apps', view: ProviderApps },
  { id: 'users', label: 'Users', view: Users },
  { id: 'prompts', label: 'AI prompts', view: AiPrompts },
] as const;

/** The instance's administration (instance admins only; the shell checks): one section at a time. */
export default function AdminPage() {
  const [section, setSection] = useState<(typeof SECTIONS)[number]['id']>('overview');
  const View = SECTIONS.find((item) => item.id === section)!.view;
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Administration</h1>
      <div className="tabs" role="group" aria-label="Sections">
        {SECTIONS.map((item) => (
          <button key={item.id} type="button" aria-pressed={section === item.id} onClick={() => setSection(item.id)}>
            {item.label}
          </button>
        ))}
      </div>
      <View />
    </section>
  );
}
