/** NATS subjects of the image editor (designs, revisions, export) and its templates, served by the creative service. */
export const ImageEditorPatterns = {
  createDesign: 'creative.designs.create',
  listDesigns: 'creative.designs.list',
  getDesign: 'creative.designs.get',
  updateDesign: 'creative.designs.update',
  deleteDesign: 'creative.designs.delete',
  exportDesign: 'creative.designs.export',
  createRevision: 'creative.design-revisions.create',
  listRevisions: 'creative.design-revisions.list',
  getRevision: 'creative.design-revisions.get',
  restoreRevision: 'creative.design-revisions.restore',
  listTemplates: 'creative.templates.list',
  getTemplate: 'creative.templates.get',
  createTemplate: 'creative.templates.create',
  deleteTemplate: 'creative.templates.delete',
} as const;
