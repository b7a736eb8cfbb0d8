/**
 * The server as an operator starts it on launch day (README, "Production"; docs/security.md, "Launch
 * checklist"), for the production journey (tests/production/): `NODE_ENV=production`, PostgreSQL, no demo
 * seed, and every provider a LIVE adapter pointed at a stand-in of its own that follows the provider's
 * published API and runs as a server of its own in the test's process:
 *
 * - email: SMTP_URL names an SMTP server (./smtp-stand-in.ts) whose mail the test reads;
 * - SMS: SMS_PROVIDER=gatewayapi with GATEWAYAPI_URL at the GatewayAPI stand-in (./gatewayapi-standin.ts),
 *   whose delivery reports reach the server signed with the webhook's secret;
 * - the age check: AGE_PROVIDER=yoti at the Yoti stand-in (./yoti-stand-in.ts) with its user view, and its
 *   notification key in YOTI_PUBLIC_KEY_FILE;
 * - card payments: PAYMENT_CARD=cardbilling at the FlexPay stand-in (./flexpay-stand-in.ts); crypto and
 *   the phone bill are off.
 *
 * No TEST provider runs in the server (ALLOW_TEST_PROVIDERS is not given, so loadConfig would refuse one),
 * and the test never reads the outbox. The server is the `npm start` command (scripts/server-flags.ts) in a
 * process group of its own, on a database `annonce_production_<random>` of its own; `restart` starts it
 * again with changed settings (the operator's next start), `stop` leaves no process, database or folder.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFlexPayStandIn, type FlexPayStandIn } from './flexpay-stand-in.ts';
import { createRunDatabase } from './postgres-database.ts';
import { startGatewayApiStandIn, type GatewayApiStandIn } from './gatewayapi-standin.ts';
import { startSmtpStandIn, type SmtpStandIn } from './smtp-stand-in.ts';
import { startYotiStandIn, type YotiStandIn } from './yoti-stand-in.ts';
import { startServerProcess } from './server-process.ts';


export type ProductionStack = {
  /** SITE_URL: the only address the server answers as its own. */
  url: string;
  admin: { email: string; password: string };
  smtp: SmtpStandIn;
  sms: GatewayApiStandIn;
  yoti: YotiStandIn;
  flexpay: FlexPayStandIn;
  /** The server's stdout and stderr, across its starts. */
  logFile: string;
  /** The environment of the last start. */
  env: Record<string, string>;
  /** Stops the server (SIGTERM, as a service manager does) and starts it again with `changes` (a value of null unsets it). */
  restart: (changes: Record<string, string | null>) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startProductionStack(options: { dir: string; port: number; readyTimeoutMs?: number }): Promise<ProductionStack> {
  const cleanups: (() => Promise<void>)[] = [];
  let server: ChildProcess | null = null;
  const killServer = async (signal: NodeJS.Signals) => {
    const child = server;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, signal);
    } catch {
      return;
    }
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000).unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
  };
  const stop = async () => {
    await killServer('SIGTERM');
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('production stack teardown:', error));
    cleanups.length = 0;
    if (process.env['PRODUCTION_KEEP_LOGS']) console.log(`production stack: the server's log is kept in ${options.dir}`);
    else rmSync(options.dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(options.dir, { recursive: true });
    const database = await createRunDatabase('annonce_production', 'the production journey');
    cleanups.push(database.drop);

    const url = `http://127.0.0.1:${options.port}`;
    const smtp = await startSmtpStandIn();
    cleanups.push(smtp.close);
    const sms = await startGatewayApiStandIn();
    cleanups.push(sms.close);
    const yoti = await startYotiStandIn();
    cleanups.push(yoti.close);
    const flexpay = await startFlexPayStandIn({ postbackBase: url, backUrl: `${url}/backend/advert-package/` });
    cleanups.push(flexpay.close);
    const yotiKeyFile = path.join(options.dir, 'yoti-notifications.pem');
    writeFileSync(yotiKeyFile, yoti.publicKeyPem);

    const adminAccount = { email: 'drift@example.test', password: randomBytes(18).toString('base64url') };
    const logFile = path.join(options.dir, 'server.log');
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      DATA_DIR: path.join(options.dir, 'data'),
      DATABASE_URL: database.url,
      SITE_URL: url,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SUPPORT_ADMIN_EMAIL: adminAccount.email,
      SUPPORT_ADMIN_PASSWORD: adminAccount.password,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Annoncekatalog <no-reply@example.test>',
      SMS_PROVIDER: 'gatewayapi',
      GATEWAYAPI_TOKEN: sms.token,
      GATEWAYAPI_URL: sms.url,
      GATEWAYAPI_WEBHOOK_SECRET: sms.webhookSecret,
      SMS_SENDER: 'Annonce',
      YOTI_SDK_ID: yoti.sdkId,
      YOTI_API_KEY: yoti.apiKey,
      YOTI_API_URL: yoti.apiUrl,
      YOTI_PUBLIC_KEY_FILE: yotiKeyFile,
      CARDBILLING_SHOP_ID: flexpay.shopId,
      CARDBILLING_SIGNATURE_KEY: flexpay.signatureKey,
      CARDBILLING_URL: flexpay.url,
      SITE_REBUILD_DEBOUNCE_SECONDS: '2',
      LOG_LEVEL: process.env['PRODUCTION_LOG_LEVEL'] ?? 'info',
      LOG_FORMAT: 'json',
      ASTRO_TELEMETRY_DISABLED: '1',
    };
    // Nothing of the runner's own settings reaches the server but what a machine has (PATH, HOME, …).
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'].includes(name))) as Record<string, string>;

    const start = async () => {
      server = await startServerProcess({ env: stack.env, baseEnv: inherited, logFile, url, readyTimeoutMs: options.readyTimeoutMs ?? 5 * 60_000 });
    };

    const stack: ProductionStack = {
      url,
      admin: adminAccount,
      smtp,
      sms,
      yoti,
      flexpay,
      logFile,
      env,
      restart: async (changes) => {
        await killServer('SIGTERM');
        const next = { ...stack.env };
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) delete next[name];
          else next[name] = value;
        }
        stack.env = next;
        await start();
      },
      stop,
    };
    await start();
    return stack;
  } catch (error) {
    await stop();
    throw error;
  }
}
