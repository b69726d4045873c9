import type { Field } from 'payload'
import { AUDIENCES, CLAIM_KINDS } from '../../editorial/types'
import { formatSlug } from './hooks/formatSlug'

const label = (v: string): string => v.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())

export const contentFields: Field[] = [
  { name: 'title', type: 'text', required: true, admin: { description: 'Specific and natural; under 60 characters.' } },
  {
    name: 'excerpt',
    type: 'textarea',
    admin: { description: 'Shown on cards and in feeds: what the reader gets.' },
  },
  { name: 'content', type: 'richText', label: 'Content' },
]

export const seoFields: Field[] = [
  {
    name: 'seoDescription',
    type: 'textarea',
    label: 'SEO description',
    admin: { description: 'Meta description, under 160 characters.' },
  },
  { name: 'searchIntent', type: 'text', label: 'Search intent', admin: { description: 'The question this post answers.' } },
  {
    name: 'primaryAudience',
    type: 'select',
    label: 'Primary audience',
    options: AUDIENCES.map((v) => ({ label: label(v), value: v })),
  },
  { name: 'platformAngle', type: 'textarea', label: 'Platform angle', admin: { description: 'Why this matters on our platform.' } },
  {
    name: 'internalLinks',
    type: 'array',
    label: 'Internal links',
    labels: { singular: 'Link', plural: 'Links' },
    fields: [
      { name: 'url', type: 'text', required: true, admin: { description: 'e.g. /bonus or /docs/…' } },
      { name: 'label', type: 'text', required: true },
    ],
  },
  {
    name: 'claimLedger',
    type: 'array',
    label: 'Claim ledger',
    labels: { singular: 'Claim', plural: 'Claims' },
    fields: [
      { name: 'claim', type: 'textarea', required: true },
      { name: 'source', type: 'text', required: true, admin: { description: 'Internal source (doc, contract, ticket).' } },
      { name: 'kind', type: 'select', required: true, options: CLAIM_KINDS.map((v) => ({ label: label(v), value: v })) },
      { name: 'checkedAt', type: 'date', required: true, label: 'Checked at' },
    ],
  },
]

export const sidebarFields: Field[] = [
  {
    name: 'slug',
    type: 'text',
    unique: true,
    index: true,
    hooks: { beforeValidate: [formatSlug] },
    admin: { position: 'sidebar', description: 'Short, lowercase, readable; fixed once published. Empty: made from the title.' },
  },
  {
    name: 'status',
    type: 'select',
    defaultValue: 'draft',
    options: [
      { label: 'Draft', value: 'draft' },
      { label: 'Published', value: 'published' },
    ],
    index: true,
    admin: { position: 'sidebar', readOnly: true, description: 'Mirrors the publish state.' },
  },
  { name: 'author', type: 'text', admin: { position: 'sidebar', description: 'Visible author or context.' } },
  { name: 'tags', type: 'text', hasMany: true, admin: { position: 'sidebar', description: 'For grouping only.' } },
  { name: 'heroImage', type: 'upload', relationTo: 'media', admin: { position: 'sidebar' } },
  {
    name: 'imageUrl',
    type: 'text',
    label: 'External image URL',
    admin: { position: 'sidebar', description: 'Used when no image is uploaded (partner articles).' },
  },
  {
    name: 'publishedAt',
    type: 'date',
    index: true,
    admin: { position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
  },
  {
    name: 'source',
    type: 'select',
    defaultValue: 'editor',
    options: [
      { label: 'Editor', value: 'editor' },
      { label: 'Content partner', value: 'contentpartner' },
    ],
    admin: { position: 'sidebar', readOnly: true },
  },
  {
    name: 'editorialWarnings',
    type: 'textarea',
    label: 'Editorial check',
    admin: {
      position: 'sidebar',
      readOnly: true,
      description: 'Filled on every save. [error] lines block publishing; [warning] lines are advice.',
    },
  },
  { name: 'introFingerprint', type: 'text', admin: { hidden: true } },
]
