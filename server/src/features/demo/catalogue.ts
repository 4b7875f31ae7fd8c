import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';

/** Static building blocks of the demo world: product catalogue, names, texts. */

export interface CatalogueProduct {
  partNumber: string;
  name: string;
  family: 'Fluids' | 'Structures' | 'Electronics' | 'Optics' | 'Platform';
  daemon: string;
  featureName: string;
  /** shared / named products carry that license type; everything else is a plain floating 'server' license */
  licenseType: 'server' | 'shared' | 'named';
  /** Elastic consumption in units per license-hour; absent = not sold elastically */
  elasticRate?: number;
  /** HPC packs run with many cores: larger counts in usage sessions */
  hpc?: boolean;
  /** Annual list price (USD) used for FSA price tables; absent = not orderable through an FSA */
  annualPrice?: number;
}

/** Vendor daemon (main) and the four product-family daemons (see guides/flexlm-license-files.md: tag + "lmd"). */
export const daemons = {
  Platform: 'simlmd',
  Fluids: 'cfdlmd',
  Structures: 'mechlmd',
  Electronics: 'emlmd',
  Optics: 'optlmd',
};

const p = (
  partNumber: string,
  name: string,
  family: CatalogueProduct['family'],
  featureName: string,
  extra: Partial<CatalogueProduct> = {},
): CatalogueProduct => ({
  partNumber,
  name,
  family,
  daemon: daemons[family],
  featureName,
  licenseType: 'server',
  ...extra,
});

export const ELASTIC_PART = 'ELA0060001';
export const FSA_CONTRACT_PART = 'FSA0030100';

export const products: CatalogueProduct[] = [
  p('CFD0010101', 'Fluids Solver', 'Fluids', 'cfd_solver', { elasticRate: 2.0, annualPrice: 24_000 }),
  p('CFD0010102', 'Fluids Solver Premium', 'Fluids', 'cfd_premium', {
    elasticRate: 3.5,
    annualPrice: 38_000,
  }),
  p('CFD0010110', 'Fluids Pre/Post', 'Fluids', 'cfd_prepost', { elasticRate: 0.8, annualPrice: 9_500 }),
  p('CFD0010120', 'Fluids HPC Pack', 'Fluids', 'cfd_hpc_pack', {
    elasticRate: 0.25,
    hpc: true,
    annualPrice: 6_000,
  }),
  p('CFD0010130', 'Fluids Combustion Add-on', 'Fluids', 'cfd_combustion', { annualPrice: 12_000 }),
  p('CFD0010140', 'Fluids Solver - Shared Web', 'Fluids', 'cfd_solver_web', { licenseType: 'shared' }),
  p('CFD0010150', 'Fluids Solver (Node)', 'Fluids', 'cfd_solver_node'),
  p('STR0020101', 'Structures Mechanical Pro', 'Structures', 'mech_pro', {
    elasticRate: 1.5,
    annualPrice: 18_000,
  }),
  p('STR0020102', 'Structures Mechanical Enterprise', 'Structures', 'mech_ent', {
    elasticRate: 2.8,
    annualPrice: 32_000,
  }),
  p('STR0020110', 'Structures Explicit Dynamics', 'Structures', 'mech_explicit', {
    elasticRate: 3.2,
    annualPrice: 27_000,
  }),
  p('STR0020120', 'Structures HPC Pack', 'Structures', 'mech_hpc_pack', {
    elasticRate: 0.25,
    hpc: true,
    annualPrice: 6_000,
  }),
  p('STR0020130', 'Structures Fatigue Module', 'Structures', 'mech_fatigue', { annualPrice: 8_000 }),
  p('STR0020140', 'Structures Mechanical - Named User', 'Structures', 'mech_pro_nu', {
    licenseType: 'named',
  }),
  p('ELC0030101', 'Electronics HF Solver', 'Electronics', 'em_hf', { elasticRate: 4.0, annualPrice: 42_000 }),
  p('ELC0030102', 'Electronics Signal Integrity', 'Electronics', 'em_si', {
    elasticRate: 2.2,
    annualPrice: 21_000,
  }),
  p('ELC0030110', 'Electronics Thermal', 'Electronics', 'em_thermal', {
    elasticRate: 1.6,
    annualPrice: 15_000,
  }),
  p('ELC0030120', 'Electronics Motor Design', 'Electronics', 'em_motor', { annualPrice: 16_500 }),
  p('ELC0030130', 'Electronics HPC Pack', 'Electronics', 'em_hpc_pack', { elasticRate: 0.25, hpc: true }),
  p('ELC0030140', 'Electronics Circuit Designer - Named User', 'Electronics', 'em_circuit_nu', {
    licenseType: 'named',
  }),
  p('OPT0040101', 'Optics Lens Designer', 'Optics', 'opt_lens', { elasticRate: 1.2, annualPrice: 14_000 }),
  p('OPT0040102', 'Optics Illumination', 'Optics', 'opt_illum', { annualPrice: 13_000 }),
  p('OPT0040110', 'Optics Photonics Solver', 'Optics', 'opt_photonics', {
    elasticRate: 2.6,
    annualPrice: 22_000,
  }),
  p('OPT0040120', 'Optics Lens Designer (Node)', 'Optics', 'opt_lens_node'),
  p('PLT0050101', 'Platform Workbench', 'Platform', 'wb_base', { elasticRate: 0.5, annualPrice: 4_000 }),
  p('PLT0050102', 'Platform Geometry Interfaces', 'Platform', 'geom_if', {
    elasticRate: 0.3,
    annualPrice: 3_000,
  }),
  p('PLT0050110', 'Platform Optimization', 'Platform', 'optimize', { elasticRate: 1.0, annualPrice: 11_000 }),
  p('PLT0050120', 'Platform Data Manager - Shared Web', 'Platform', 'datamgr_web', { licenseType: 'shared' }),
  p(ELASTIC_PART, 'Elastic Units (AEU)', 'Platform', 'elastic_units'),
  p(FSA_CONTRACT_PART, 'Flexible Spending Account', 'Platform', 'fsa_contract'),
  p(FSA_MANUAL_DRAWDOWN_PART, 'Flexible Spending Account Manual Drawdown', 'Platform', 'fsa_manual'),
];

/** Products that can be licensed as leases/perpetuals (not the elastic/FSA vehicles). */
export const sslProducts = products.filter((x) => !['ELA', 'FSA'].includes(x.partNumber.slice(0, 3)));

/** Company-name parts for the accounts that are not hand-designed. */
export const companyStems = [
  'Northwind',
  'Contoso',
  'Fabrikam',
  'Tailspin',
  'Litware',
  'Proseware',
  'Woodgrove',
  'Lamna',
  'Wingtip',
  'Trey',
  'Lucerne',
  'Humongous',
  'Coho',
  'Alpine',
  'Blue Yonder',
  'Relecloud',
  'VanArsdel',
  'Southridge',
  'Adatum',
  'Margie',
  'Fourth',
  'Consolidated',
  'Graphic',
  'Bellows',
  'Kestrel',
  'Orbital',
  'Helix',
  'Quantum Forge',
  'Meridian',
  'Cascade',
  'Ironbridge',
  'Polaris',
  'Summit',
  'Redwood',
  'Silverline',
  'Granite',
  'Aurora',
  'Vantage',
  'Borealis',
  'Sterling',
];
export const companySuffixes = [
  'Aerospace',
  'Automotive',
  'Turbomachinery',
  'Semiconductors',
  'Medical Devices',
  'Energy Systems',
  'Marine',
  'Robotics',
  'Rail Systems',
  'Photonics',
  'Consumer Electronics',
  'Defense Systems',
  'Chemicals',
  'Wind Power',
  'Engineering Services',
];
export const companyForms = ['Inc.', 'GmbH', 'Ltd.', 'LLC', 'AG', 'S.A.', 'Corp.', 'B.V.', 'K.K.', 'Oy'];

export const firstNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Sofia',
  'Lucas',
  'Mia',
  'Mateo',
  'Hannah',
  'Yuki',
  'Priya',
  'Arjun',
  'Chen',
  'Fatima',
  'Lars',
  'Ingrid',
  'Diego',
  'Amara',
  'Tomasz',
  'Elena',
];
export const lastNames = [
  'Schmidt',
  'Nakamura',
  'Okafor',
  'Rossi',
  'Kowalski',
  'Garcia',
  'Lindqvist',
  'Patel',
  'Dubois',
  'Novak',
  'Hughes',
  'Tanaka',
  'Moreau',
  'Silva',
  'Jensen',
  'Kim',
  'Weber',
  'Murphy',
  'Haddad',
  'Costa',
];

/** Login names on engineering workstations, as usage sessions report them. */
export const usernames = [
  'jsmith',
  'mrossi',
  'akim',
  'tnakamura',
  'lgarcia',
  'pschmidt',
  'ookafor',
  'ejensen',
  'dsilva',
  'hweber',
  'cdubois',
  'fhaddad',
  'inovak',
  'ytanaka',
  'amurphy',
  'rpatel',
  'kcosta',
  'blindqvist',
  'smoreau',
  'thughes',
  'gkowalski',
  'vchen',
  'nmartin',
  'zali',
  'eberg',
  'mfischer',
  'jlee',
  'wzhang',
  'aperez',
  'hsato',
  'cnguyen',
  'dmueller',
  'lbianchi',
  'kwagner',
  'rjohansson',
  'sgupta',
  'tkovac',
  'pwalsh',
  'ajanssen',
  'mkhan',
];

export const projects = [
  '',
  '',
  'wing-redesign',
  'battery-cooling',
  'turbine-blade-v4',
  'antenna-5g',
  'pump-efficiency',
  'crash-sim-2025',
  'lens-array',
  'motor-nvh',
  'heat-exchanger',
  'rotor-dynamics',
];

export const productVersions = ['2024 R1', '2024 R2', '2025 R1', '2025 R2'];
export const rateTableVersions = ['2023.2.1', '2024.1.3', '2024.2.0', '2025.1.2'];
