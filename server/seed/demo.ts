// Demo data for the dashboard, benchmarks and manual testing (ADR-0012):
// `npm run seed:demo -- --scale N [--seed S]`. Scale 1 makes about 50 providers (all four
// types), 150 services (pending, verified, rejected), their apprenticeships and vocational
// trainings, 80 jobs with further positions, 200 clients with their skills, social, security
// and business records, 150 referrals and 60 job referrals, across the seeded territories,
// coordinates jittered around each territory's centre. Everything scales linearly.
// Content is drawn from a seeded generator (same seed, same data; keys and registration
// numbers stay random) and written in batched multi-row INSERTs inside one transaction.
import { performance } from 'node:perf_hooks';
import { ident } from '../../schemas/derive/sql';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName, JOB_REFERRAL_FLOW, REFERRAL_FLOW, type StatusFlow } from '../../schemas/index';
import { configFromEnv } from '../config';
import { openDb, type Db, type Queryable } from '../db/index';
import { prepareDatabase } from '../db/roles';
import { seedLookupLists } from '../plugins/lists/index';
import { seedLists, type ListItem } from './lists';

type Row = Record<string, unknown>;

/** Rows per unit of scale. Providers, services, jobs, profiles and referrals are exact
 * (rounded); the other kinds follow from them (see `DemoSummary`). */
export const PER_SCALE = { serviceProvider: 50, service: 150, job: 80, profile: 200, referral: 150, jobReferral: 60 } as const;

/** Entities the seed fills, parents before children (their insertion order). */
export const DEMO_ENTITIES = [
  'serviceProvider',
  'service',
  'apprenticeship',
  'vocational',
  'job',
  'otherJob',
  'profile',
  'skills',
  'social',
  'security',
  'business',
  'referral',
  'jobReferral',
] as const;
export type DemoEntity = (typeof DEMO_ENTITIES)[number];

/** Rows inserted per entity, and lookup lists added because they were missing. */
export type DemoSummary = Record<DemoEntity, number> & { lists: number };

export interface DemoOptions {
  scale: number;
  /** The user recorded as creator (and verifier of verified services); null for none. */
  createdBy?: string | null;
  /** Seed of the content generator. */
  seed?: number;
  /** "Now" in ms: records are dated in the year before it. */
  now?: number;
}

// ---------------------------------------------------------------------------------------------
// Deterministic random content
// ---------------------------------------------------------------------------------------------

/** mulberry32: small, fast and good enough for demo data. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let left = this.next() * pairs.reduce((sum, [, w]) => sum + w, 0);
    for (const [value, weight] of pairs) if ((left -= weight) < 0) return value;
    return pairs[pairs.length - 1][0];
  }

  /** Between `min` and `max` distinct items. */
  some<T>(items: readonly T[], min: number, max: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    for (let n = this.int(min, Math.min(max, pool.length)); n > 0; n -= 1) out.push(...pool.splice(this.int(0, pool.length - 1), 1));
    return out;
  }

  /** A standard normal value (Box-Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }
}

interface Ctx {
  rnd: Random;
  now: number;
  by: string | null;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const dateOf = (ms: number) => iso(ms).slice(0, 10);
/** A moment in the last year. */
const withinYear = (ctx: Ctx) => ctx.now - ctx.rnd.next() * 365 * DAY;
/** A moment between `from` and now. */
const after = (ctx: Ctx, from: number) => from + ctx.rnd.next() * Math.max(0, ctx.now - from);

function audit(ctx: Ctx, created: number): Row {
  const at = iso(Math.round(created));
  return { createdAt: at, updatedAt: at, createdBy: ctx.by, updatedBy: ctx.by };
}

// ---------------------------------------------------------------------------------------------
// Lookup lists (server/seed/lists.ts; the ids are stable)
// ---------------------------------------------------------------------------------------------

function itemsOf(key: string): ListItem[] {
  const found = seedLists.find((l) => l.key === key);
  if (!found) throw new Error(`seed list ${key} is missing`);
  return found.items;
}

const ids = (key: string) => itemsOf(key).map((item) => item.id);
const TERRITORIES = itemsOf('territory');
/** Goma and the towns hold most records. */
const TERRITORY_WEIGHTS: readonly number[] = [30, 8, 12, 12, 5, 10, 13, 10];
const ORGANISATIONS = itemsOf('organisation');
const SERVICE_TYPES = itemsOf('serviceType');

/** Categories a provider of each type (1 social, 2 economic, 3 legal, 4 education) offers. */
const CATEGORIES_BY_TYPE: Readonly<Record<number, readonly number[]>> = { 1: [1, 5, 6, 7, 8], 2: [3], 3: [4], 4: [2] };
const APPRENTICESHIP_TYPE = 5;
const VOCATIONAL_TYPE = 6;

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

const PLACES: Readonly<Record<string, readonly string[]>> = {
  Goma: ['Himbi', 'Katindo', 'Kyeshero', 'Mabanga', 'Majengo', 'Ndosho', 'Mugunga', 'Katoyi', 'Birere', 'Virunga'],
  Nyiragongo: ['Kibati', 'Munigi', 'Kanyaruchinya', 'Buhumba', 'Rusayo'],
  Rutshuru: ['Kiwanja', 'Rubare', 'Kalengera', 'Bunagana', 'Rwindi'],
  Masisi: ['Sake', 'Kitshanga', 'Mushaki', 'Nyabiondo', 'Rubaya'],
  Walikale: ['Itebero', 'Pinga', 'Kibua', 'Mubi', 'Ntoto'],
  Lubero: ['Kirumba', 'Kayna', 'Kanyabayonga', 'Musienene', 'Alimbongo'],
  Beni: ['Mulekera', 'Butanuka', 'Oicha', 'Mavivi', 'Mutwanga'],
  Butembo: ['Vulindi', 'Kimemi', 'Mutiri', 'Matanda', 'Bwinyole'],
};
const STREETS = [
  'Avenue de la Paix',
  'Boulevard Kanyamuhanga',
  'Avenue du Lac',
  'Avenue des Volcans',
  'Avenue Mapendo',
  'Avenue du Marché',
  'Route de Sake',
  "Avenue de l'Église",
  'Avenue des Écoles',
  "Avenue de l'Hôpital",
  'Avenue Tumaini',
];
const SAINTS = ['Saint-Joseph', 'Sainte-Marie', 'Saint-Paul', 'Don Bosco', 'Sainte-Thérèse', 'Saint-Michel', 'Le Bon Berger'];
const WOMEN = [
  'Marie',
  'Jeanne',
  'Grace',
  'Esther',
  'Furaha',
  'Neema',
  'Aline',
  'Josiane',
  'Sarah',
  'Chantal',
  'Kavira',
  'Masika',
  'Kahindo',
  'Deborah',
  'Rachel',
  'Mary',
  'Ruth',
  'Claudine',
  'Solange',
  'Françoise',
  'Annie',
];
const MEN = [
  'Jean',
  'Patrick',
  'Emmanuel',
  'Espoir',
  'Joseph',
  'David',
  'Pierre',
  'Samuel',
  'Christian',
  'Moïse',
  'Benjamin',
  'Olivier',
  'Justin',
  'Kambale',
  'Paluku',
  'Muhindo',
  'Kasereka',
  'Daniel',
  'John',
  'Michael',
  'Eric',
];
const MIDDLE = ['Amani', 'Baraka', 'Faida', 'Imani', 'Upendo', 'Tumaini', 'Bahati', 'Sifa'];
const SURNAMES = [
  'Mumbere',
  'Kahindo',
  'Kasereka',
  'Bahati',
  'Muhindo',
  'Kambale',
  'Paluku',
  'Kavira',
  'Masika',
  'Lukogho',
  'Mbusa',
  'Mughole',
  'Kyakimwa',
  'Sikuli',
  'Nzanzu',
  'Bisimwa',
  'Habimana',
  'Uwimana',
  'Hakizimana',
  'Mulumba',
  'Kalonji',
  'Ilunga',
  'Mukendi',
  'Tshibangu',
  'Dubois',
  'Martin',
  'Lambert',
  'Smith',
  'Johnson',
  'Wilson',
];

const PROVIDER_NAMES: Readonly<Record<number, readonly string[]>> = {
  1: [
    'Centre de santé {place}',
    'Hôpital général de référence de {territory}',
    "Maison d'écoute {place}",
    "Centre d'accueil {saint}",
    'Association des mamans de {place}',
    'Community Health Post {place}',
  ],
  2: [
    'Coopérative agricole de {place}',
    'Mutuelle de solidarité {place}',
    "Caisse d'épargne {saint}",
    'Kivu Microfinance, agence de {place}',
    'Réseau des entrepreneurs de {territory}',
  ],
  3: [
    'Clinique juridique de {territory}',
    'Bureau de consultation gratuite de {place}',
    'Association pour les droits de la femme ({place})',
    'Legal Aid Desk {territory}',
  ],
  4: [
    'Institut technique {saint}',
    'Centre de formation professionnelle de {place}',
    'École des métiers de {territory}',
    "Centre d'alphabétisation {place}",
    'Youth Skills Centre {place}',
  ],
};

const JOBS_BY_SECTOR: Readonly<Record<number, readonly string[]>> = {
  1: ['Ouvrier agricole', 'Technicien agronome', "Agent d'élevage"],
  2: ['Vendeur en boutique', 'Caissière', 'Commis de magasin', 'Sales Assistant'],
  3: ['Maçon qualifié', 'Aide-maçon', 'Chef de chantier', 'Menuisier coffreur'],
  4: ['Opérateur de concassage', 'Agent de sécurité minière'],
  5: ['Chauffeur poids lourd', 'Magasinier', 'Livreur à moto'],
  6: ['Cuisinier', 'Serveuse', "Réceptionniste d'hôtel", 'Housekeeper'],
  7: ['Infirmier', 'Aide-soignante', 'Laborantin'],
  8: ['Enseignant de primaire', 'Formatrice en couture', "Moniteur d'alphabétisation"],
  9: ['Tailleur', 'Soudeur', 'Coiffeuse', 'Artisan menuisier'],
  10: ['Technicien informatique', 'Opérateur de saisie', 'IT Support Assistant'],
  11: ['Agent de terrain', 'Animateur communautaire', 'Logistics Assistant', 'Field Officer'],
};
const EMPLOYERS = [
  'Hôtel Lac Kivu',
  'Virunga Logistics',
  'Brasserie des Grands Lacs',
  'Kivu Coffee Cooperative',
  'Entreprise de construction Mapendo',
  'Pharmacie La Grâce',
  'Boulangerie Le Bon Pain',
  'Garage Espoir',
  'Supermarché Kivu Market',
  'Agro-Kivu SARL',
  'École primaire Mwangaza',
  'ONG Solidarité Nord-Kivu',
  'Goma Tech Hub',
  'Transport Express Grands Lacs',
  'Atelier de couture Neema',
  'Great Lakes Builders Ltd',
];

const REASONS_BY_CATEGORY: Readonly<Record<number, readonly string[]>> = {
  1: ['Besoin de soins médicaux', 'Suivi de grossesse', 'Référée pour une consultation'],
  2: ['Inscription dans une formation professionnelle', 'Demande de cours d’alphabétisation', 'Inscription scolaire des enfants'],
  3: ["Recherche d'un financement pour une petite activité", 'Orientation vers un emploi', 'Appui au démarrage d’entreprise'],
  4: ["Documents d'état civil à régulariser", 'Litige foncier', 'Prise en charge après violence'],
  5: ['Soutien psychosocial après un incident', 'Accompagnement psychologique'],
  6: ['Besoin d’hébergement temporaire', 'Abri détruit'],
  7: ['Assistance alimentaire', 'Enfant malnutri'],
  8: ['Accès à l’eau potable', 'Kit d’hygiène'],
};

/** 'Centre de santé Himbi' → 'centre.de.sante.himbi': ASCII, for e-mail addresses. */
function slug(text: string, max = 40): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return ascii
    .replace(/[^a-z0-9]+/g, '.')
    .slice(0, max)
    .replace(/^\.+|\.+$/g, '');
}

const phone = (ctx: Ctx) =>
  `+243 ${ctx.rnd.pick(['81', '82', '84', '85', '89', '97', '98', '99'])} ${ctx.rnd.int(100, 999)} ${ctx.rnd.int(1000, 9999)}`;

function person(ctx: Ctx): { first: string; last: string; sex: 'F' | 'M' } {
  const sex = ctx.rnd.chance(0.55) ? 'F' : 'M';
  return { first: ctx.rnd.pick(sex === 'F' ? WOMEN : MEN), last: ctx.rnd.pick(SURNAMES), sex };
}

function fillIn(template: string, ctx: Ctx, where: Spot): string {
  return template.replace('{place}', where.place).replace('{territory}', where.territoryName).replace('{saint}', ctx.rnd.pick(SAINTS));
}

// ---------------------------------------------------------------------------------------------
// Places
// ---------------------------------------------------------------------------------------------

interface Spot {
  territory: number;
  territoryName: string;
  place: string;
  address: string | null;
  lat: number | null;
  lng: number | null;
}

/** Within about 15 km of the centre: a normal spread of 0.05° (5.5 km), clipped at 3 sigma. */
function jitter(ctx: Ctx, centre: number): number {
  const offset = Math.max(-0.15, Math.min(0.15, ctx.rnd.normal() * 0.05));
  return Math.round((centre + offset) * 1e6) / 1e6;
}

function spot(ctx: Ctx, territoryId?: number): Spot {
  const t = territoryId
    ? (TERRITORIES.find((item) => item.id === territoryId) ?? TERRITORIES[0])
    : ctx.rnd.weighted(TERRITORIES.map((item, i) => [item, TERRITORY_WEIGHTS[i] ?? 5] as const));
  const place = ctx.rnd.pick(PLACES[t.en] ?? [t.fr]);
  const located = ctx.rnd.chance(0.92) && t.lat !== undefined && t.lng !== undefined;
  return {
    territory: t.id,
    territoryName: t.fr,
    place,
    address: ctx.rnd.chance(0.94) ? `${ctx.rnd.pick(STREETS)} n° ${ctx.rnd.int(1, 250)}, quartier ${place}, ${t.fr}` : null,
    lat: located ? jitter(ctx, t.lat as number) : null,
    lng: located ? jitter(ctx, t.lng as number) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Providers, services, apprenticeships, vocational trainings
// ---------------------------------------------------------------------------------------------

interface Provider {
  id: string;
  type: number;
  territory: number;
  name: string;
  created: number;
}

function providerRow(ctx: Ctx, i: number): [Row, Provider] {
  const type =
    i < 4
      ? i + 1
      : ctx.rnd.weighted([
          [1, 40],
          [2, 25],
          [3, 15],
          [4, 20],
        ] as const);
  const where = spot(ctx);
  const name = fillIn(ctx.rnd.pick(PROVIDER_NAMES[type] ?? []), ctx, where);
  const contact = person(ctx);
  const created = withinYear(ctx);
  const p: Provider = { id: uuidv7(), type, territory: where.territory, name, created };
  const row: Row = {
    sp_Id: p.id,
    sp_Name: name,
    sp_type: type,
    sp_Address: where.address,
    territory: where.territory,
    phone: phone(ctx),
    email: ctx.rnd.chance(0.7) ? `contact@${slug(name)}.example.org` : null,
    contact: `${contact.first} ${contact.last}`,
    lat: where.lat,
    lng: where.lng,
    location: ctx.rnd.pick(ORGANISATIONS).id,
    deleted: false,
    ...audit(ctx, created),
  };
  return [row, p];
}

interface Service {
  id: string;
  category: number;
  serviceType: number;
  status: number;
  territory: number;
  created: number;
}

const SERVICE_DETAILS = {
  cost: ['Gratuit', 'Gratuit pour les personnes vulnérables', '5 USD par consultation', 'Contribution symbolique de 2 000 FC'],
  hours: ['Lundi–vendredi, 8h–16h', 'Lundi–samedi, 7h30–15h30', 'Mardi et jeudi, 9h–13h', '24 h sur 24'],
  eligibility: [
    'Toute personne du territoire',
    'Femmes et filles de 15 à 49 ans',
    'Jeunes de 16 à 30 ans',
    'Personnes déplacées et familles d’accueil',
  ],
  verified: ['Vérifié sur place', 'Contact confirmé par téléphone', 'Visite de terrain concluante'],
  rejected: ['Doublon d’un service existant', 'Le prestataire ne propose plus ce service', 'Coordonnées invalides'],
};

/** Which provider offers service `i`: each provider at least one, then at random; the two
 * after that are an apprenticeship and a vocational training, so every scale has both. */
function assignService(ctx: Ctx, i: number, providers: readonly Provider[]): [Provider, number | undefined] {
  const n = providers.length;
  if (i < n) return [providers[i], undefined];
  if (i === n || i === n + 1) return [providers[Math.min(3, n - 1)], i === n ? APPRENTICESHIP_TYPE : VOCATIONAL_TYPE];
  return [ctx.rnd.pick(providers), undefined];
}

function chooseServiceType(ctx: Ctx, provider: Provider, forced?: number): ListItem {
  const forcedItem = SERVICE_TYPES.find((t) => t.id === forced);
  if (forcedItem) return forcedItem;
  const category = ctx.rnd.pick(CATEGORIES_BY_TYPE[provider.type] ?? [1]);
  return ctx.rnd.pick(SERVICE_TYPES.filter((t) => t.parent === category));
}

function verification(ctx: Ctx, status: number, created: number): Row {
  if (status === 0) return { verifyComment: null, verifiedBy: null, verifiedAt: null };
  const comment = ctx.rnd.pick(status === 1 ? SERVICE_DETAILS.verified : SERVICE_DETAILS.rejected);
  return { verifyComment: comment, verifiedBy: ctx.by, verifiedAt: iso(Math.round(after(ctx, created))) };
}

function serviceRow(ctx: Ctx, i: number, providers: readonly Provider[]): [Row, Service] {
  const [provider, forced] = assignService(ctx, i, providers);
  const type = chooseServiceType(ctx, provider, forced);
  const status =
    i < 3
      ? [1, 0, 2][i]
      : ctx.rnd.weighted([
          [1, 60],
          [0, 28],
          [2, 12],
        ] as const);
  const created = after(ctx, provider.created);
  const s: Service = { id: uuidv7(), category: type.parent ?? 1, serviceType: type.id, status, territory: provider.territory, created };
  const row: Row = {
    sp_Detail_Id: s.id,
    sp_Id: provider.id,
    name: `${type.fr} – ${provider.name}`.slice(0, 200),
    category: s.category,
    serviceType: type.id,
    territory: s.territory,
    description: `${type.fr} (${type.en}) proposé par ${provider.name}.`,
    eligibility: ctx.rnd.pick(SERVICE_DETAILS.eligibility),
    cost: ctx.rnd.pick(SERVICE_DETAILS.cost),
    hours: ctx.rnd.pick(SERVICE_DETAILS.hours),
    status,
    ...verification(ctx, status, created),
    sp_img1: null,
    sp_img2: null,
    sp_img3: null,
    deleted: false,
    ...audit(ctx, created),
  };
  return [row, s];
}

function offerRow(ctx: Ctx, s: Service): [entity: 'apprenticeship' | 'vocational', row: Row] {
  const created = after(ctx, s.created);
  const common = {
    sp_d_Id: s.id,
    durationMonths: ctx.rnd.int(3, 18),
    places: ctx.rnd.int(2, 25),
    startDate: dateOf(after(ctx, created) + 30 * DAY),
  };
  if (s.serviceType === APPRENTICESHIP_TYPE) {
    const conditions = ctx.rnd.pick([
      'Avoir au moins 16 ans',
      'Savoir lire et écrire',
      'Être recommandé par un partenaire',
      'Aucune condition',
    ]);
    return ['apprenticeship', { appr_Id: uuidv7(), trade: ctx.rnd.pick(ids('trade')), ...common, conditions, ...audit(ctx, created) }];
  }
  const certificate = ctx.rnd.pick(['Certificat de fin de formation', "Attestation de l'INPP", 'Brevet professionnel']);
  return ['vocational', { voc_Id: uuidv7(), vocField: ctx.rnd.pick(ids('vocField')), ...common, certificate, ...audit(ctx, created) }];
}

// ---------------------------------------------------------------------------------------------
// Jobs
// ---------------------------------------------------------------------------------------------

interface Job {
  id: string;
  open: boolean;
  created: number;
}

function jobRow(ctx: Ctx): [Row, Job] {
  const sector = ctx.rnd.pick(ids('sector'));
  const title = ctx.rnd.pick(JOBS_BY_SECTOR[sector] ?? ['Agent polyvalent']);
  const employer = ctx.rnd.pick(EMPLOYERS);
  const where = spot(ctx);
  const created = withinYear(ctx);
  const contact = person(ctx);
  const job: Job = { id: uuidv7(), open: ctx.rnd.chance(0.75), created };
  const row: Row = {
    jb_Id: job.id,
    title,
    employer,
    sector,
    territory: where.territory,
    address: where.address,
    positions: ctx.rnd.weighted([
      [1, 40],
      [2, 25],
      [3, 15],
      [5, 12],
      [10, 8],
    ] as const),
    contract: ctx.rnd.pick(['permanent', 'fixedTerm', 'temporary', 'daily', 'internship']),
    deadline: dateOf(created + ctx.rnd.int(14, 60) * DAY),
    description: `${employer} recrute : ${title.toLowerCase()} à ${where.place}.`,
    requirements: ctx.rnd.pick(['Expérience de 2 ans', 'Savoir lire et écrire', 'Permis de conduire', 'Aucune expérience exigée']),
    contact: `${contact.first} ${contact.last}`,
    phone: phone(ctx),
    email: `jobs@${slug(employer)}.example.org`,
    lat: where.lat,
    lng: where.lng,
    jb_img1: null,
    jb_img2: null,
    jb_img3: null,
    open: job.open,
    location: ctx.rnd.pick(ORGANISATIONS).id,
    ...audit(ctx, created),
  };
  return [row, job];
}

function otherJobRow(ctx: Ctx, job: Job): Row {
  const title = ctx.rnd.pick(['Aide-magasinier', 'Gardien', 'Assistant administratif', 'Apprenti', 'Cleaner', 'Aide-cuisinier']);
  return {
    jb_oth_Id: uuidv7(),
    jb_Id: job.id,
    title,
    positions: ctx.rnd.int(1, 4),
    description: `Poste supplémentaire : ${title.toLowerCase()}.`,
    requirements: null,
    ...audit(ctx, after(ctx, job.created)),
  };
}

// ---------------------------------------------------------------------------------------------
// Clients and their records
// ---------------------------------------------------------------------------------------------

interface Profile {
  id: string;
  created: number;
  education: number;
  age: number;
  sex: 'F' | 'M';
}

function bspData(ctx: Ctx, apprenticeships: readonly string[]): Row {
  const appr = apprenticeships.length && ctx.rnd.chance(0.15) ? [{ tbl_Id: ctx.rnd.pick(apprenticeships) }] : [];
  return { appr, orgHelp: ctx.rnd.some(ids('orgHelp'), 0, 2).map((id) => ({ tbl_Id: id })) };
}

function profileRow(ctx: Ctx, apprenticeships: readonly string[]): [Row, Profile] {
  const who = person(ctx);
  const where = spot(ctx);
  const org = ctx.rnd.pick(ORGANISATIONS);
  const created = withinYear(ctx);
  const p: Profile = { id: uuidv7(), created, education: ctx.rnd.pick(ids('educationLevel')), age: ctx.rnd.int(16, 60), sex: who.sex };
  const disabled = ctx.rnd.chance(0.07);
  const row: Row = {
    prof_Id: p.id,
    prof_Reg_No: registrationNumber(org.abbr),
    firstName: who.first,
    middleName: ctx.rnd.chance(0.4) ? ctx.rnd.pick(MIDDLE) : null,
    lastName: who.last,
    sex: who.sex,
    birthDate: dateOf(ctx.now - (p.age * 365 + ctx.rnd.int(0, 364)) * DAY),
    phone: ctx.rnd.chance(0.8) ? phone(ctx) : null,
    territory: where.territory,
    address: where.address,
    populationGroup: ctx.rnd.weighted([
      ['resident', 35],
      ['displaced', 35],
      ['returnee', 10],
      ['host', 12],
      ['refugee', 5],
      ['other', 3],
    ] as const),
    householdSize: ctx.rnd.int(1, 12),
    educationLevel: p.education,
    disability: disabled,
    disabilityDetail: disabled ? ctx.rnd.pick(['Handicap moteur', 'Malvoyance', 'Malentendance']) : null,
    consent: true,
    location: org.id,
    BspData: bspData(ctx, apprenticeships),
    ...audit(ctx, created),
  };
  return [row, p];
}

function skillsRow(ctx: Ctx, p: Profile): Row {
  return {
    prof_Id: p.id,
    educationLevel: p.education,
    diploma: p.education >= 5 ? ctx.rnd.pick(["Diplôme d'État", 'Brevet professionnel', 'Graduat']) : null,
    skills: ctx.rnd.some(ids('skill'), 0, 3),
    otherSkills: ctx.rnd.chance(0.2) ? 'Petit commerce' : null,
    languages: ctx.rnd.pick(['Français, Swahili', 'Swahili, Kinande', 'Swahili, Kinyarwanda', 'Français, Anglais, Swahili']),
    experienceYears: ctx.rnd.int(0, Math.min(20, p.age - 16)),
    workExperience: ctx.rnd.chance(0.5) ? 'Travaux journaliers et petit commerce' : null,
    tradeWanted: ctx.rnd.pick(ids('trade')),
    vocFieldWanted: ctx.rnd.chance(0.6) ? ctx.rnd.pick(ids('vocField')) : null,
    ...audit(ctx, after(ctx, p.created)),
  };
}

function socialRow(ctx: Ctx, p: Profile): Row {
  return {
    prof_Id: p.id,
    maritalStatus: ctx.rnd.pick(['single', 'married', 'divorced', 'widowed', 'separated']),
    householdHead: ctx.rnd.chance(0.45),
    dependants: ctx.rnd.int(0, 8),
    housing: ctx.rnd.pick(['owner', 'tenant', 'hosted', 'shelter', 'none']),
    incomeSource: ctx.rnd.pick(['Travail journalier', 'Agriculture', 'Petit commerce', 'Aucune']),
    monthlyIncome: ctx.rnd.int(0, 60) * 5,
    vulnerabilities: ctx.rnd.chance(0.3) ? 'Famille monoparentale' : null,
    needs: ctx.rnd.pick(['Emploi', 'Formation', 'Logement', 'Soins']),
    ...audit(ctx, after(ctx, p.created)),
  };
}

function securityRow(ctx: Ctx, p: Profile): Row {
  const hasId = ctx.rnd.chance(0.7);
  const concern = ctx.rnd.chance(0.15);
  return {
    prof_Id: p.id,
    feelsSafe: !concern && ctx.rnd.chance(0.8),
    hasIdDocument: hasId,
    idDocumentType: hasId ? ctx.rnd.pick(["Carte d'électeur", 'Attestation de déplacé', 'Passeport']) : null,
    protectionConcern: concern,
    incidentReported: concern && ctx.rnd.chance(0.5),
    concerns: concern ? 'Insécurité dans le quartier' : null,
    referralNeeded: concern,
    ...audit(ctx, after(ctx, p.created)),
  };
}

function businessRow(ctx: Ctx, p: Profile): Row {
  const has = ctx.rnd.chance(0.3);
  return {
    prof_Id: p.id,
    hasBusiness: has,
    businessIdea: ctx.rnd.pick(['Vente de légumes', 'Atelier de couture', 'Salon de coiffure', 'Élevage de poules']),
    sector: ctx.rnd.pick(ids('sector')),
    startCapital: has ? ctx.rnd.int(2, 60) * 10 : null,
    capitalNeeded: ctx.rnd.int(5, 200) * 10,
    supportNeeded: ctx.rnd.pick(['Kit de démarrage', 'Formation en gestion', 'Crédit']),
    trainingNeeded: ctx.rnd.chance(0.6),
    ...audit(ctx, after(ctx, p.created)),
  };
}

// ---------------------------------------------------------------------------------------------
// Referrals
// ---------------------------------------------------------------------------------------------

/** The status history a referral at `status` went through (ADR-0029), a week per step, with
 * the last status's date and feedback. No random draw: the rest of the data stays the same. */
function followUp(ctx: Ctx, flow: StatusFlow, status: string, date: number, feedback: string | null): Row {
  const steps = status === flow.refusal ? [flow.path[0] as string, status] : flow.path.slice(0, flow.path.indexOf(status) + 1);
  const history = steps.map((step, i) => {
    const at = Math.min(date + i * 7 * DAY, ctx.now);
    return {
      status: step,
      date: dateOf(at),
      feedback: i === steps.length - 1 ? feedback : null,
      by: ctx.by ?? '',
      byName: 'ICRS demo',
      at: iso(Math.round(at)),
    };
  });
  return { statusDate: history.at(-1)?.date ?? null, history: ctx.by ? history : null };
}

function referralRow(ctx: Ctx, p: Profile, s: Service): Row {
  const date = after(ctx, Math.max(p.created, s.created));
  const status = ctx.rnd.weighted([
    ['sent', 30],
    ['accepted', 25],
    ['completed', 35],
    ['declined', 10],
  ] as const);
  const feedback =
    status === 'completed' ? 'Service reçu, cliente satisfaite' : status === 'declined' ? 'Ne remplit pas les critères' : null;
  return {
    ref_Id: uuidv7(),
    prof_Id: p.id,
    sp_Detail_Id: s.id,
    date: dateOf(date),
    reason: ctx.rnd.pick(REASONS_BY_CATEGORY[s.category] ?? ['Orientation']),
    status,
    feedback,
    followUpDate: status === 'sent' || status === 'accepted' ? dateOf(date + 14 * DAY) : null,
    attachments: null,
    ...followUp(ctx, REFERRAL_FLOW, status, date, feedback),
    ...audit(ctx, date),
  };
}

function jobReferralRow(ctx: Ctx, p: Profile, job: Job): Row {
  const date = after(ctx, Math.max(p.created, job.created));
  const status = ctx.rnd.weighted([
    ['sent', 35],
    ['interviewed', 25],
    ['hired', 20],
    ['not_selected', 20],
  ] as const);
  const feedback = status === 'hired' ? 'Embauché(e) après entretien' : status === 'not_selected' ? 'Profil non retenu' : null;
  return {
    jref_Id: uuidv7(),
    prof_Id: p.id,
    jb_Id: job.id,
    date: dateOf(date),
    status,
    feedback,
    ...followUp(ctx, JOB_REFERRAL_FLOW, status, date, feedback),
    ...audit(ctx, date),
  };
}

// ---------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------

type Rows = Record<DemoEntity, Row[]>;

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
const scaled = (base: number, scale: number) => Math.max(1, Math.round(base * scale));

function buildProviders(ctx: Ctx, scale: number, rows: Rows): Service[] {
  const providers = times(scaled(PER_SCALE.serviceProvider, scale), (i) => providerRow(ctx, i));
  rows.serviceProvider = providers.map(([row]) => row);
  const services = times(scaled(PER_SCALE.service, scale), (i) =>
    serviceRow(
      ctx,
      i,
      providers.map(([, p]) => p),
    ),
  );
  rows.service = services.map(([row]) => row);
  const offers = services
    .filter(([, s]) => s.serviceType === APPRENTICESHIP_TYPE || s.serviceType === VOCATIONAL_TYPE)
    .map(([, s]) => offerRow(ctx, s));
  rows.apprenticeship = offers.filter(([kind]) => kind === 'apprenticeship').map(([, row]) => row);
  rows.vocational = offers.filter(([kind]) => kind === 'vocational').map(([, row]) => row);
  return services.map(([, s]) => s);
}

function buildJobs(ctx: Ctx, scale: number, rows: Rows): Job[] {
  const jobs = times(scaled(PER_SCALE.job, scale), () => jobRow(ctx));
  rows.job = jobs.map(([row]) => row);
  rows.otherJob = jobs.filter((_, i) => i % 4 === 0).map(([, job]) => otherJobRow(ctx, job));
  return jobs.map(([, job]) => job);
}

function buildProfiles(ctx: Ctx, scale: number, rows: Rows): Profile[] {
  const apprenticeships = rows.apprenticeship.map((row) => row.appr_Id as string);
  const profiles = times(scaled(PER_SCALE.profile, scale), () => profileRow(ctx, apprenticeships));
  const people = profiles.map(([, p]) => p);
  rows.profile = profiles.map(([row]) => row);
  rows.skills = people.map((p) => skillsRow(ctx, p));
  rows.social = people.map((p) => socialRow(ctx, p));
  rows.security = people.map((p) => securityRow(ctx, p));
  rows.business = people.filter((_, i) => i % 2 === 0).map((p) => businessRow(ctx, p));
  return people;
}

function buildReferrals(ctx: Ctx, scale: number, rows: Rows, people: Profile[], services: Service[], jobs: Job[]): void {
  const verified = services.filter((s) => s.status === 1);
  const open = jobs.filter((j) => j.open);
  rows.referral = times(scaled(PER_SCALE.referral, scale), () =>
    referralRow(ctx, ctx.rnd.pick(people), ctx.rnd.pick(verified.length && ctx.rnd.chance(0.9) ? verified : services)),
  );
  rows.jobReferral = times(scaled(PER_SCALE.jobReferral, scale), () =>
    jobReferralRow(ctx, ctx.rnd.pick(people), ctx.rnd.pick(open.length && ctx.rnd.chance(0.9) ? open : jobs)),
  );
}

/** Every demo row, by entity, in memory (a few MB at scale 10). */
export function buildDemoRows(options: DemoOptions): Rows {
  if (!(options.scale > 0)) throw new Error('scale must be a positive number');
  const ctx: Ctx = { rnd: new Random(options.seed ?? 20240517), now: options.now ?? Date.now(), by: options.createdBy ?? null };
  const rows = Object.fromEntries(DEMO_ENTITIES.map((name) => [name, []])) as unknown as Rows;
  const services = buildProviders(ctx, options.scale, rows);
  const jobs = buildJobs(ctx, options.scale, rows);
  const people = buildProfiles(ctx, options.scale, rows);
  buildReferrals(ctx, options.scale, rows, people, services, jobs);
  return rows;
}

const BATCH = 1000;

/** Multi-row INSERTs of up to BATCH rows: one JSON parameter per statement, expanded by
 * jsonb_populate_recordset into the table's own column types. */
async function insertRows(tx: Queryable, table: string, rows: readonly Row[]): Promise<void> {
  if (!rows[0]) return;
  const columns = Object.keys(rows[0]).map(ident).join(', ');
  for (let start = 0; start < rows.length; start += BATCH) {
    await tx.query(
      `INSERT INTO ${ident(table)} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${ident(table)}, $1::jsonb)`,
      [JSON.stringify(rows.slice(start, start + BATCH))],
    );
  }
}

/** Fills the database with demo data; all or nothing. The lookup lists the data refers to are
 * written first when missing (as the server does on start: server/plugins/lists). */
export async function seedDemo(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const rows = buildDemoRows(options);
  return db.transaction(async (tx) => {
    const lists = (await seedLookupLists(tx)).length;
    for (const name of DEMO_ENTITIES) await insertRows(tx, entityByName[name].table, rows[name]);
    const counts = Object.fromEntries(DEMO_ENTITIES.map((name) => [name, rows[name].length])) as Record<DemoEntity, number>;
    return { ...counts, lists };
  });
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

const USAGE =
  'usage: npm run seed:demo -- [--scale N] [--seed S]   (N > 0, default 1: ~50 providers, 150 services, 80 jobs, 200 clients, 150 referrals)';

/** `--scale N`, `--seed S` (also `--scale=N`). */
export function parseArgs(argv: readonly string[]): { scale: number; seed?: number } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = (argv[i] ?? '').split('=', 2);
    if (flag !== '--scale' && flag !== '--seed') throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
    values.set(flag, inline ?? argv[(i += 1)] ?? '');
  }
  const scale = Number(values.get('--scale') ?? 1);
  const seed = values.has('--seed') ? Number(values.get('--seed')) : undefined;
  if (!(scale > 0 && scale <= 1000)) throw new Error(`--scale must be a number above 0 and at most 1000\n${USAGE}`);
  if (seed !== undefined && !Number.isInteger(seed)) throw new Error(`--seed must be an integer\n${USAGE}`);
  return { scale, seed };
}

async function firstAdministrator(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ userId: string }>(
    `SELECT "userId" FROM "users" WHERE "role" = 1 AND "active" ORDER BY "createdAt" LIMIT 1`,
  );
  return row?.userId ?? null;
}

function report(summary: DemoSummary, seconds: number, where: string): string {
  const lines = DEMO_ENTITIES.map((name) => `  ${entityByName[name].table.padEnd(20)} ${String(summary[name]).padStart(8)}`);
  const total = DEMO_ENTITIES.reduce((sum, name) => sum + summary[name], 0);
  return [
    `Demo data inserted into ${where}:`,
    ...lines,
    `  ${'total'.padEnd(20)} ${String(total).padStart(8)}`,
    summary.lists ? `  (plus ${summary.lists} lookup lists, which were missing)` : '',
    `in ${seconds.toFixed(2)} s`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The `seed:demo` script: the server's database (DATABASE_URL or DATA_DIR), migrated as the
 * server does it (by DATABASE_OWNER_URL's role when set: server/db/roles.ts). */
export async function runSeedDemo(argv: readonly string[]): Promise<void> {
  const { scale, seed } = parseArgs(argv);
  const config = configFromEnv();
  const db = await openDb(config);
  try {
    const warning = await prepareDatabase(db, config);
    if (warning) console.warn(`Warning: ${warning}`);
    const started = performance.now();
    const summary = await seedDemo(db, { scale, seed, createdBy: await firstAdministrator(db) });
    const where = config.databaseUrl ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`;
    console.log(report(summary, (performance.now() - started) / 1000, where));
  } finally {
    await db.close();
  }
}
