import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import { ADMIN_SERVICE } from '@social/contracts';
import { runService } from '@social/platform';
import { AdminModule } from './admin.module.js';
import { adminSettings } from './config.js';
import { adminMigrations } from './migrations/index.js';
import { adminSealedColumns } from './sealed-columns.js';

void runService({
  name: ADMIN_SERVICE,
  settings: adminSettings,
  // no entities: every table of this service is read and written in SQL through typed rows (src/**/*.row.ts)
  entities: [],
  migrations: adminMigrations,
  imports: [AdminModule],
  // Re-sealed by `main.js reseal` after a SECRETS_KEY rotation.
  sealedColumns: adminSealedColumns,
});
