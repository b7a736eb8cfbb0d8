/**
 * The main flows through two instances behind nginx, on PostgreSQL, Redis and S3 (issue 19; the cluster of
 * tests/support/cluster.ts), as one serial journey with a `kill -9` of instance A in the middle:
 *
 * 1. B serves the site A built and published (it fetched it at start, docs/decisions/033).
 * 2. A visitor, through nginx, searches with the header's box and opens an advert.
 * 3. A new advertiser signs in through nginx, checks their age, edits the advert's text and uploads a picture.
 * 4. Right after both were acknowledged, A is killed (SIGKILL of its process group). Through nginx (now B
 *    alone) and on B directly, nothing is lost: the text, and the picture, read by B from S3.
 * 5. A starts again. The advertiser's videos screen is open on A and on B (each tab on its own instance's
 *    port); a clip sent through A's tab becomes "ready" in both tabs without a reload: the hub's events
 *    reach the tab of the instance that did not convert it, through Redis.
 * 6. Support, on A directly, accepts the age check and approves the picture and the advert; after the
 *    rebuild the advert page with the new text is served by A, by B and by nginx (each measured from the
 *    approval), and B serves the picture from S3 at its /media/ address.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, passAgeGate, islandsReady, unique, createSupportUser, signInSupport } from '../e2e/fixtures.ts';
import { createAdvertiser, type NewAdvertiser } from '../e2e/advertisers.ts';
import { writePlaceholderPicture, writeTestClip } from '../e2e/media-files.ts';
import { scratchFolder } from '../e2e/scratch.ts';
import { acceptTestAgeCheck } from '../e2e/validation-queue.ts';
import { buildStartedAt, clusterState, killInstance, logTail, servedBuild, startInstance, type InstanceName } from '../support/cluster.ts';

test.describe.configure({ mode: 'serial' });

const scratch = scratchFolder('cluster-e2e');
// The addresses are known once the globalSetup has started the cluster (Playwright lists the tests before).
const nginxPort = Number(process.env['CLUSTER_NGINX_PORT']);
const nginx = `http://127.0.0.1:${nginxPort}`;
const instanceA = `http://127.0.0.1:${process.env['CLUSTER_PORT_A']}`;
const instanceB = `http://127.0.0.1:${process.env['CLUSTER_PORT_B']}`;

const name = `Klynge ${unique('').slice(1, 9)}`;
const title = `Klyngeoverskrift ${unique('').slice(1, 9)}`;
const description = `Skrevet gennem nginx før instans A blev stoppet med kill -9. ${unique('tekst')}`;

let advertiser: NewAdvertiser;
let advertiserContext: BrowserContext;
let page: Page;
let advertId: number;

test.afterAll(async () => {
  await advertiserContext?.close();
  scratch.remove();
});

// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const instance of Object.values(clusterState().instances)) {
    await testInfo.attach(`instance-${instance.name}.log`, { body: logTail(instance.logFile, 200), contentType: 'text/plain' });
  }
});

test('instance B serves the site instance A built and published, without building one', async () => {
  const { a, b } = clusterState().instances;
  expect(a.servedAtStart).not.toBeNull();
  // B's first site was made before B was started: B fetched it (a build of its own would start after).
  expect(b.servedAtStart).not.toBeNull();
  expect(buildStartedAt(b.servedAtStart!).getTime()).toBeLessThan(new Date(b.startedAt!).getTime());
  expect(b.servedAtStart).toBe(a.servedAtStart);
  // B made no build of its own (a build writes its folder under builds/ from its first moment): every build
  // folder of B is one A built (a rebuild of A since B started, e.g. its scheduled one, reaches B as a fetch).
  const buildsOf = (instance: { dataDir: string }) => readdirSync(path.join(instance.dataDir, 'site', 'builds')).filter((entry) => /^\d{4}-/.test(entry));
  // B's first: what B has fetched, A had built before (A's list read after it).
  const onB = buildsOf(b);
  const builtByA = buildsOf(a);
  for (const build of onB) expect(builtByA, `B's build ${build} is one A built`).toContain(build);
  // Both serve the same build (a rebuild since then reaches both within seconds): both read at each poll.
  await expect
    .poll(() => {
      const [servedByA, servedByB] = [servedBuild(a).id, servedBuild(b).id];
      return servedByA === servedByB ? 'the same' : `A ${servedByA}, B ${servedByB}`;
    }, { timeout: 30_000 })
    .toBe('the same');
});

test('a visitor searches through nginx and opens an advert', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: nginx, locale: 'da-DK' });
  await passAgeGate(context, nginx);
  const visitor = await context.newPage();
  const answer = await visitor.request.get('/api/frontend/searchpageprofiles', { params: { Locale: 'da', PageSize: '24', Url: '/escort/' } });
  expect(answer.ok()).toBe(true);
  const [found] = ((await answer.json()) as { items: { id: number; name: string }[] }).items;
  expect(found, 'a public demo advert').toBeDefined();

  await visitor.goto('/');
  await islandsReady(visitor);
  const box = visitor.getByRole('banner').getByRole('searchbox', { name: 'Søg' });
  await box.fill(found!.name);
  await box.press('Enter');
  await expect(visitor).toHaveURL(new RegExp(`/search/${encodeURIComponent(found!.name)}/$`));
  const card = visitor.locator(`#main [data-advert-card="${found!.id}"]`);
  await expect(card).toBeVisible();
  await card.getByRole('link', { name: found!.name, exact: true }).first().click();
  await expect(visitor).toHaveURL(new RegExp(`/annonce/[a-z0-9-]+-${found!.id}/$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(found!.name);
  await context.close();
});

test('an advertiser signs in through nginx, checks their age, edits the text and uploads a picture', async ({ browser }) => {
  // The account, as a person signs up (the emailed link from the outbox), in a context of its own.
  const signUp = await browser.newContext({ baseURL: nginx, locale: 'da-DK' });
  advertiser = await createAdvertiser(await signUp.newPage(), { name });
  await signUp.close();

  advertiserContext = await browser.newContext({ baseURL: nginx, locale: 'da-DK' });
  await passAgeGate(advertiserContext, nginx);
  page = await advertiserContext.newPage();
  await page.goto('/login/');
  await islandsReady(page);
  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByLabel('Adgangskode').fill(advertiser.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
  advertId = ((await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number }).advertId;

  // The age check with the TEST provider (support accepts it later, on A).
  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Tjek min alder online' }).click();
  await page.waitForURL(/\/test-age-provider\/[^/]+$/);
  await page.getByRole('button', { name: /^Bestået/ }).click();
  await page.waitForURL((url) => url.pathname === '/backend/dashboard/');

  await page.goto('/backend/basic/');
  await expect(page.getByRole('heading', { level: 1, name: 'Grundoplysninger' })).toBeVisible();
  await page.getByLabel('Overskrift').fill(title);
  await page.getByLabel('Beskrivelse').fill(description);
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();

  await page.goto('/backend/pictures/');
  await page.getByLabel('Vælg billeder').setInputFiles(await writePlaceholderPicture(scratch.file('klynge.jpg'), 'jpeg', 160));
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'klynge.jpg' })).toContainText('Tilføjet – venter på godkendelse.');
  await expect(page.locator('[data-picture-id]')).toHaveCount(1);
});

test('kill -9 of instance A: through nginx and on B the text and the picture are there', async () => {
  await killInstance('a');
  expect((await fetch(`${instanceA}/healthz`).catch(() => null))?.ok ?? false).toBe(false);

  // Through nginx, which now reaches B alone.
  await page.goto('/backend/basic/');
  await expect(page.getByLabel('Overskrift')).toHaveValue(title);
  await expect(page.getByLabel('Beskrivelse')).toHaveValue(description);
  await page.goto('/backend/pictures/');
  const picture = page.locator('[data-picture-id] img');
  await expect(picture).toHaveCount(1);
  await expect(picture).toHaveJSProperty('complete', true);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // On B directly: the saved text, and the picture's bytes from S3.
  const basic = (await (await page.request.get(`${instanceB}/api/backend/basicinformation`)).json()) as { current: { title: string; description: string } };
  expect(basic.current).toMatchObject({ title, description });
  const listed = (await (await page.request.get(`${instanceB}/api/backend/profilepictures`)).json()) as PictureList;
  const [own] = picturesOf(listed);
  expect(own?.variants.length).toBeGreaterThan(0);
  const file = await page.request.get(`${instanceB}${own!.variants[0]!.url}`);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toMatch(/^image\//);
});

test('instance A starts again; a video converted there reaches the advertiser’s tab on B through the hub', async () => {
  test.setTimeout(4 * 60_000);
  const started = Date.now();
  await startInstance('a');
  test.info().annotations.push({ type: 'restart', description: `instance A ready ${((Date.now() - started) / 1000).toFixed(1)} s after its start` });
  console.log(`instance A ready again ${((Date.now() - started) / 1000).toFixed(1)} s after its start`);

  const tabs: Record<InstanceName, Page> = { a: await advertiserContext.newPage(), b: await advertiserContext.newPage() };
  for (const [instance, tab] of Object.entries(tabs)) {
    await tab.goto(`${clusterState().instances[instance as InstanceName].url}/backend/videos/`);
    await expect(tab.getByRole('heading', { level: 1, name: 'Videoer' })).toBeVisible();
    await expect(tab.getByTestId('videos-empty')).toBeVisible();
    await expect(tab.getByTestId('hub-state')).toHaveAttribute('data-state', 'connected');
    // What the tab goes through, and a marker a reload would wipe: the video must arrive by the hub alone.
    await tab.evaluate(() => {
      const w = window as unknown as { hubStates: string[]; notReloaded: boolean };
      w.notReloaded = true;
      w.hubStates = [];
      const record = () => {
        const hubState = document.querySelector('[data-testid="hub-state"]')?.getAttribute('data-state') ?? '';
        if (w.hubStates.at(-1) !== hubState) w.hubStates.push(hubState);
      };
      record();
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
    });
  }

  await tabs.a.getByLabel('Vælg en video').setInputFiles(writeTestClip(scratch.file('klynge.mp4')));
  await expect(tabs.a.getByTestId('video-upload-result')).toHaveText('Videoen er sendt. Vi konverterer den nu – den bliver opdateret her, når den er klar.');
  for (const tab of Object.values(tabs)) {
    const item = tab.locator('[data-video-id]');
    await expect(item).toHaveCount(1, { timeout: 90_000 });
    await expect(item).toHaveAttribute('data-processing', 'ready', { timeout: 90_000 });
    await expect(item.locator('video')).toHaveAttribute('poster', /.+/);
    // Never reloaded, and never reconnected (a reconnect reloads the list, which would hide a lost event).
    expect(await tab.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await tab.evaluate(() => (window as unknown as { hubStates: string[] }).hubStates)).toEqual(['connected']);
  }
  await Promise.all(Object.values(tabs).map((tab) => tab.close()));
});

test('support approves on A; after the rebuild the new text is public on A, on B and through nginx', async ({ browser }) => {
  test.setTimeout(4 * 60_000);
  await acceptTestAgeCheck(browser, instanceA, name);
  const user = await createSupportUser(instanceA, { permissions: ['Support'] });
  const supportContext = await browser.newContext({ baseURL: instanceA, locale: 'da-DK' });
  expect((await signInSupport(supportContext.request, user)).status()).toBe(200);
  const support = await supportContext.newPage();
  await support.goto(`/support/review-adverts/${advertId}/`);
  await expect(support.getByRole('heading', { level: 1, name: `Gennemgang af ${name}` })).toBeVisible();
  await expect(support.locator('[data-verified]')).toContainText('Ja');
  const media = support.getByRole('region', { name: 'Ventende billeder og videoer' });
  await expect(media.locator('li[data-media]')).toHaveCount(2);
  for (const item of ['Billede', 'Video']) {
    await media.getByRole('button', { name: new RegExp(`^Godkend ${item} nr\\. \\d+$`) }).click();
    await expect(media.locator(`li[data-media^="${item === 'Billede' ? 'picture' : 'video'}-"]`)).toHaveCount(0);
  }
  await support.getByRole('button', { name: 'Godkend annonce' }).click();
  await expect(support.getByText('Annoncen er godkendt.')).toBeVisible();
  const approvedAt = Date.now();
  await supportContext.close();

  // Each address serves the advert's built page with the new text (a bare id redirects to the page).
  const servedAfter: Record<string, number> = {};
  const addresses = { 'instance A': instanceA, 'instance B': instanceB, nginx };
  await Promise.all(
    Object.entries(addresses).map(async ([label, base]) => {
      await expect
        .poll(
          async () => {
            const answer = await fetch(`${base}/annonce/${advertId}/`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
            return answer?.status === 200 && (await answer.text()).includes(title);
          },
          { timeout: 180_000, intervals: [250] },
        )
        .toBe(true);
      servedAfter[label] = Date.now() - approvedAt;
    }),
  );
  const report = Object.entries(servedAfter)
    .map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  // A rebuild queued while another runs waits for it (jobs/queue.ts claimJob); two at once happen only when a
  // killed instance's lock ran out meanwhile, and the older one's builder then serves the published one.
  const overtaken = Object.values(clusterState().instances).filter((instance) => readFileSync(instance.logFile, 'utf8').includes('a later site build is published already'));
  console.log(`approval to the new text served: ${report}${overtaken.length > 0 ? ` (a rebuild on ${overtaken.map((i) => i.name.toUpperCase()).join(', ')} was overtaken by the other's)` : ''}`);
  test.info().annotations.push({ type: 'approval to served', description: report });

  // The visitor's view through nginx: the new text and the picture.
  const context = await browser.newContext({ baseURL: nginx, locale: 'da-DK' });
  await passAgeGate(context, nginx);
  const visitor = await context.newPage();
  await visitor.goto(`/annonce/${advertId}/`);
  await expect(visitor).toHaveURL(new RegExp(`/annonce/[a-z0-9-]+-${advertId}/$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(name);
  await expect(visitor.getByText(title)).toBeVisible();
  await expect(visitor.getByText(description)).toBeVisible();
  const shown = visitor.locator('#main img[src*="/media/"]').first();
  await expect(shown).toHaveJSProperty('complete', true);
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // B serves the published picture (the copy the browser chose) from S3 at its /media/ address.
  const shownPath = new URL(await shown.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
  expect(shownPath).toMatch(/^\/media\//);
  const fromB = await fetch(`${instanceB}${shownPath}`);
  expect(fromB.status).toBe(200);
  expect(fromB.headers.get('content-type')).toMatch(/^image\//);
  await context.close();
});

type PictureListItem = { id: number; variants: { url: string }[] };
type PictureList = PictureListItem[] | { items: PictureListItem[] };
const picturesOf = (list: PictureList) => (Array.isArray(list) ? list : list.items);
