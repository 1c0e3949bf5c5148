// The lookup lists seeded on first start (ADR-0011), in French and English. Item ids are
// stable: records store them, so an item is deactivated, never renumbered or deleted.
// Territories are those of North Kivu, where the programme's field teams work; their
// centres place demo records on the map.
import type { LookupItem } from '../../schemas/index';

export type ListItem = LookupItem;

export interface SeedList {
  key: string;
  fr: string;
  en: string;
  items: ListItem[];
}

type Row = [fr: string, en: string, extra?: Partial<ListItem>];
const items = (rows: Row[]): ListItem[] => rows.map(([fr, en, extra], i) => ({ id: i + 1, fr, en, active: true, ...extra }));

export const seedLists: SeedList[] = [
  {
    key: 'territory',
    fr: 'Territoires',
    en: 'Territories',
    items: items([
      ['Goma', 'Goma', { lat: -1.6792, lng: 29.2228 }],
      ['Nyiragongo', 'Nyiragongo', { lat: -1.5167, lng: 29.25 }],
      ['Rutshuru', 'Rutshuru', { lat: -1.1833, lng: 29.45 }],
      ['Masisi', 'Masisi', { lat: -1.4, lng: 28.8167 }],
      ['Walikale', 'Walikale', { lat: -1.4167, lng: 28.05 }],
      ['Lubero', 'Lubero', { lat: -0.1586, lng: 29.2406 }],
      ['Beni', 'Beni', { lat: 0.4911, lng: 29.4731 }],
      ['Butembo', 'Butembo', { lat: 0.1419, lng: 29.2911 }],
    ]),
  },
  {
    key: 'category',
    fr: 'Catégories de service',
    en: 'Service categories',
    items: items([
      ['Santé', 'Health'],
      ['Éducation et formation', 'Education and training'],
      ['Emploi et revenus', 'Employment and income'],
      ['Protection et assistance juridique', 'Protection and legal aid'],
      ['Appui psychosocial', 'Psychosocial support'],
      ['Logement et abris', 'Housing and shelter'],
      ['Alimentation et nutrition', 'Food and nutrition'],
      ['Eau, hygiène et assainissement', 'Water, sanitation and hygiene'],
    ]),
  },
  {
    key: 'serviceType',
    fr: 'Types de service',
    en: 'Service types',
    items: items([
      ['Consultation médicale', 'Medical consultation', { parent: 1 }],
      ['Santé maternelle', 'Maternal health', { parent: 1 }],
      ['Scolarisation', 'School enrolment', { parent: 2 }],
      ['Alphabétisation', 'Literacy classes', { parent: 2 }],
      ['Apprentissage', 'Apprenticeship', { parent: 2 }],
      ['Formation professionnelle', 'Vocational training', { parent: 2 }],
      ['Placement en emploi', 'Job placement', { parent: 3 }],
      ['Microcrédit', 'Microcredit', { parent: 3 }],
      ['Appui au démarrage d’entreprise', 'Business start-up support', { parent: 3 }],
      ['Conseil juridique', 'Legal counselling', { parent: 4 }],
      ['Documentation civile', 'Civil documentation', { parent: 4 }],
      ['Prise en charge des violences', 'Gender-based violence response', { parent: 4 }],
      ['Soutien psychologique', 'Counselling', { parent: 5 }],
      ['Hébergement d’urgence', 'Emergency shelter', { parent: 6 }],
      ['Distribution alimentaire', 'Food distribution', { parent: 7 }],
      ['Accès à l’eau potable', 'Safe water access', { parent: 8 }],
    ]),
  },
  {
    key: 'sector',
    fr: "Secteurs d'emploi",
    en: 'Job sectors',
    items: items([
      ['Agriculture et élevage', 'Agriculture and livestock'],
      ['Commerce', 'Trade and retail'],
      ['Construction', 'Construction'],
      ['Mines', 'Mining'],
      ['Transport et logistique', 'Transport and logistics'],
      ['Hôtellerie et restauration', 'Hospitality and catering'],
      ['Santé', 'Health care'],
      ['Enseignement', 'Teaching'],
      ['Artisanat', 'Crafts'],
      ['Technologies de l’information', 'Information technology'],
      ['ONG et humanitaire', 'NGOs and humanitarian'],
    ]),
  },
  {
    key: 'organisation',
    fr: 'Organisations',
    en: 'Organisations',
    items: items([
      ['Programme ICRS – coordination', 'ICRS programme – coordination', { abbr: 'ICRS' }],
      ['Action pour le Développement Communautaire', 'Community Development Action', { abbr: 'ADC' }],
      ['Centre d’Appui aux Jeunes', 'Youth Support Centre', { abbr: 'CAJ' }],
      ['Femmes Solidaires du Kivu', 'Kivu Women in Solidarity', { abbr: 'FSK' }],
      ['Réseau pour l’Emploi Local', 'Local Employment Network', { abbr: 'REL' }],
    ]),
  },
  {
    key: 'educationLevel',
    fr: "Niveaux d'études",
    en: 'Education levels',
    items: items([
      ['Aucun', 'None'],
      ['Primaire non terminé', 'Primary, not completed'],
      ['Primaire', 'Primary'],
      ['Secondaire non terminé', 'Secondary, not completed'],
      ['Secondaire (diplôme d’État)', 'Secondary (state diploma)'],
      ['Formation professionnelle', 'Vocational training'],
      ['Universitaire', 'University'],
    ]),
  },
  {
    key: 'skill',
    fr: 'Compétences',
    en: 'Skills',
    items: items([
      ['Maçonnerie', 'Masonry'],
      ['Menuiserie', 'Carpentry'],
      ['Couture', 'Tailoring'],
      ['Coiffure', 'Hairdressing'],
      ['Mécanique', 'Mechanics'],
      ['Électricité', 'Electrical work'],
      ['Informatique de base', 'Basic computing'],
      ['Agriculture', 'Farming'],
      ['Cuisine', 'Cooking'],
      ['Vente', 'Sales'],
      ['Conduite', 'Driving'],
      ['Comptabilité', 'Bookkeeping'],
    ]),
  },
  {
    key: 'orgHelp',
    fr: "Types d'aide de l'organisation",
    en: 'Kinds of organisational help',
    items: items([
      ['Kit de démarrage', 'Start-up kit'],
      ['Frais de formation', 'Training fees'],
      ['Transport', 'Transport'],
      ['Accompagnement', 'Mentoring'],
      ['Subvention', 'Cash grant'],
      ['Orientation', 'Referral and guidance'],
    ]),
  },
  {
    key: 'trade',
    fr: 'Métiers',
    en: 'Trades',
    items: items([
      ['Maçon', 'Mason'],
      ['Menuisier', 'Carpenter'],
      ['Tailleur', 'Tailor'],
      ['Coiffeur', 'Hairdresser'],
      ['Mécanicien', 'Mechanic'],
      ['Électricien', 'Electrician'],
      ['Soudeur', 'Welder'],
      ['Boulanger', 'Baker'],
    ]),
  },
  {
    key: 'vocField',
    fr: 'Filières professionnelles',
    en: 'Vocational fields',
    items: items([
      ['Bâtiment', 'Building'],
      ['Coupe et couture', 'Dressmaking'],
      ['Mécanique automobile', 'Motor mechanics'],
      ['Électricité', 'Electrical installation'],
      ['Agropastoral', 'Agro-pastoral'],
      ['Informatique', 'Computing'],
      ['Hôtellerie', 'Hospitality'],
      ['Esthétique et coiffure', 'Beauty and hairdressing'],
    ]),
  },
];
