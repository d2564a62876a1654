import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsObjectList } from '../common/object-list.js';
import { DOCUMENT_MAX_BYTES } from '../common/message-size.js';

/**
 * ImageEditorDocument (the image editor's document of the API), checked member by member: every nested
 * member has its type, unknown members are refused where they are, and the
 * few members that make a document a document are required (`width_px`,
 * `height_px`, `pages` with at least one page, each page's `id`, each layer's
 * `id` and `type`). The rest may be left out; the service fills the document's,
 * pages' and layers' own scalar members with their defaults when it stores one.
 */

export const IMAGE_DOCUMENT_SCHEMA_VERSION = 1;
export const IMAGE_SIZE_MIN_PX = 1;
export const IMAGE_SIZE_MAX_PX = 8_192;
export const IMAGE_MAX_PAGES = 50;
/** Layers a page may hold at all; rendering takes at most RENDER_MAX_LAYERS (422 `render_budget_exceeded` beyond). */
export const IMAGE_MAX_LAYERS_PER_PAGE = 1_000;
export const RENDER_MAX_LAYERS = 200;
/**
 * A stored document (defaults filled) at most this long as JSON (422 at `body.document` beyond): the
 * contract's 5 MiB, which the gateway's document routes take as a body and a reply still carries
 * across NATS (the platform's max_payload is 8 MiB).
 */
export const IMAGE_DOCUMENT_MAX_BYTES = DOCUMENT_MAX_BYTES;
export const RENDER_MAX_PIXELS = 8_192 * 8_192;

export const IMAGE_LAYER_TYPES = ['text', 'image', 'shape', 'paint', 'group'] as const;
export const IMAGE_SHAPE_KINDS = ['rectangle', 'ellipse', 'line'] as const;
export const IMAGE_BACKGROUND_TYPES = ['transparent', 'color', 'gradient', 'image'] as const;
export const IMAGE_GRADIENT_TYPES = ['linear', 'radial'] as const;
export const IMAGE_FITS = ['cover', 'contain', 'fill'] as const;
export const IMAGE_TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const IMAGE_EXPORT_FORMATS = ['png', 'jpeg'] as const;

const SHORT = 200;
const COLOR = 64;
const LIST = 1_000;

const optional = (doc: Record<string, unknown>) => applyDecorators(ApiPropertyOptional(doc), Optional());
const required = (doc: Record<string, unknown>) => ApiProperty(doc);

function text(max = SHORT, description?: string, isRequired = false): PropertyDecorator {
  const doc = { type: String, maxLength: max, ...(description ? { description } : {}) };
  return applyDecorators(
    isRequired ? required({ ...doc, minLength: 1 }) : optional(doc),
    IsString(),
    isRequired ? Length(1, max) : MaxLength(max),
  );
}
const color = (description = 'a CSS colour, e.g. #RRGGBB or rgba(…)') => text(COLOR, description);

function num(min?: number, max?: number): PropertyDecorator {
  const rules = [IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number' })];
  if (min !== undefined) rules.push(Min(min));
  if (max !== undefined) rules.push(Max(max));
  return applyDecorators(
    optional({ type: Number, ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) }),
    ...rules,
  );
}

function int(min: number, max: number, isRequired = false, description?: string): PropertyDecorator {
  const doc = { type: 'integer', minimum: min, maximum: max, ...(description ? { description } : {}) };
  return applyDecorators(
    isRequired ? required(doc) : optional(doc),
    IsInt({ message: '$property must be an integer' }),
    Min(min),
    Max(max),
  );
}

const bool = () => applyDecorators(optional({ type: Boolean }), IsBoolean({ message: '$property must be a boolean' }));

function oneOf(values: readonly string[], isRequired = false): PropertyDecorator {
  const doc = { enum: [...values] };
  return applyDecorators(
    isRequired ? required(doc) : optional(doc),
    IsIn(values, { message: `$property must be one of: ${values.join(', ')}` }),
  );
}

function object(type: () => new () => object): PropertyDecorator {
  return applyDecorators(
    (target: object, key: string | symbol) => optional({ type: type() })(target, key),
    IsObject({ message: '$property must be an object' }),
    ValidateNested(),
    Type(type),
  ) as PropertyDecorator;
}

function objects(type: () => new () => object, max = LIST, min = 0, isRequired = false): PropertyDecorator {
  return applyDecorators(
    (target: object, key: string | symbol) =>
      (isRequired ? required : optional)({ type: [type()], maxItems: max, ...(min ? { minItems: min } : {}) })(target, key),
    (target: object, key: string | symbol) => IsObjectList(type(), max, min)(target, key),
  ) as PropertyDecorator;
}

function numbers(max = LIST): PropertyDecorator {
  return applyDecorators(
    optional({ type: 'array', items: { type: 'number' }, maxItems: max }),
    IsArray(),
    ArrayMaxSize(max),
    IsNumber({ allowNaN: false, allowInfinity: false }, { each: true, message: '$property must contain only numbers' }),
  );
}

export class ImagePoint {
  @num() x?: number;
  @num() y?: number;
}

export class ImageGradientStop {
  @color() color?: string;
  @num(0, 1) offset?: number;
}

export class ImageGradient {
  @oneOf(IMAGE_GRADIENT_TYPES) type?: string;
  @object(() => ImagePoint) start?: ImagePoint;
  @object(() => ImagePoint) end?: ImagePoint;
  @bool() reverse?: boolean;
  @objects(() => ImageGradientStop, 64) stops?: ImageGradientStop[];
}

export class ImageCurves {
  @text(2_000) bluePoints?: string;
  @text(2_000) greenPoints?: string;
  @text(2_000) masterPoints?: string;
  @text(2_000) redPoints?: string;
}

export class ImageWheels {
  @num() gain?: number;
  @num() gamma?: number;
  @num() highlightsAmount?: number;
  @num() highlightsHue?: number;
  @num() lift?: number;
  @num() midtonesAmount?: number;
  @num() midtonesHue?: number;
  @num() offset?: number;
  @num() offsetAmount?: number;
  @num() offsetHue?: number;
  @num() shadowsAmount?: number;
  @num() shadowsHue?: number;
}

/** Page ColorGrade and a layer image's `adjustments` share these members. */
export class ImageColorGrade {
  @num() brightness?: number;
  @num() contrast?: number;
  @num() exposure?: number;
  @num() highlights?: number;
  @num() hue?: number;
  @num() saturation?: number;
  @num() shadows?: number;
  @num() temperature?: number;
  @num() tint?: number;
  @num() vibrance?: number;
  @object(() => ImageCurves) curves?: ImageCurves;
  @object(() => ImageWheels) wheels?: ImageWheels;
}

export class ImageAdjustments extends ImageColorGrade {
  @num() blur?: number;
}

export class ImageBackgroundImage {
  @oneOf(IMAGE_FITS) fit?: string;
  @text(100, 'a media item of the workspace (its id)') media_id?: string;
}

export class ImagePageBackground {
  @oneOf(IMAGE_BACKGROUND_TYPES) type?: string;
  @color() color?: string;
  @object(() => ImageGradient) gradient?: ImageGradient;
  @object(() => ImageBackgroundImage) image?: ImageBackgroundImage;
  @num(0, 1) opacity?: number;
}

export class ImageGuides {
  @numbers(200) horizontal?: number[];
  @numbers(200) vertical?: number[];
}

export class ImageTransform {
  @bool() flip_x?: boolean;
  @bool() flip_y?: boolean;
  @num(0) height?: number;
  @num(0) width?: number;
  @num() rotation?: number;
  @num() x?: number;
  @num() y?: number;
}

export class ImageMask {
  @num(0) inset?: number;
  @num(0) radius?: number;
  @oneOf(IMAGE_SHAPE_KINDS) shape?: string;
}

export class ImageShadowEffect {
  @num() angle?: number;
  @num(0) blur?: number;
  @color() color?: string;
  @num() distance?: number;
  @num(0, 1) opacity?: number;
}

export class ImageStrokeEffect {
  @color() color?: string;
  @num(0, 1) opacity?: number;
  @oneOf(['inside', 'center', 'outside']) position?: string;
  @num(0) width?: number;
}

export class ImageEffects {
  @text(40) blend_mode?: string;
  @object(() => ImageShadowEffect) drop_shadow?: ImageShadowEffect;
  @object(() => ImageShadowEffect) inner_shadow?: ImageShadowEffect;
  @object(() => ImageStrokeEffect) stroke?: ImageStrokeEffect;
}

export class ImageSpan {
  @num() width?: number;
  @num() x?: number;
  @num() y?: number;
}

export class ImageEraseStroke {
  @objects(() => ImagePoint, 10_000) points?: ImagePoint[];
  @int(0, 10_000) size?: number;
}

export class ImageEraseMask {
  @int(0, 100_000) source_height?: number;
  @int(0, 100_000) source_width?: number;
  @objects(() => ImageSpan, 10_000) spans?: ImageSpan[];
  @objects(() => ImageEraseStroke, 1_000) strokes?: ImageEraseStroke[];
}

export class ImageCrop {
  @num(0) height?: number;
  @num(0) width?: number;
  @num(0) x?: number;
  @num(0) y?: number;
}

export class ImageLayerImage {
  @object(() => ImageAdjustments) adjustments?: ImageAdjustments;
  @int(0, 1_000) color_grade_version?: number;
  @object(() => ImageCrop) crop?: ImageCrop;
  @oneOf(IMAGE_FITS) fit?: string;
  @bool() intrinsic_pending?: boolean;
  @text(100, 'a media item of the workspace (its id); rendering needs it') media_id?: string;
  @int(0, 100_000) source_height?: number;
  @int(0, 100_000) source_width?: number;
}

export class ImagePaint {
  @color() color?: string;
  @object(() => ImageGradient) gradient?: ImageGradient;
  @text(40) kind?: string;
  @num(0, 1) opacity?: number;
  @objects(() => ImagePoint, 10_000) points?: ImagePoint[];
  @num(0) size?: number;
  @int(0, 100_000) source_height?: number;
  @int(0, 100_000) source_width?: number;
  @objects(() => ImageSpan, 10_000) spans?: ImageSpan[];
}

export class ImageShape {
  @color() fill?: string;
  @oneOf(IMAGE_SHAPE_KINDS) kind?: string;
  @num(0) radius?: number;
  @color() stroke?: string;
  @num(0) stroke_width?: number;
}

export class ImageTextCurve {
  @num() offset?: number;
  @bool() reverse?: boolean;
  @num() strength?: number;
  @text(40) type?: string;
}

export class ImageTextShadow {
  @num(0) blur?: number;
  @num() offset_x?: number;
  @num() offset_y?: number;
  @color() color?: string;
}

export class ImageText {
  @oneOf(IMAGE_TEXT_ALIGNS) align?: string;
  @color() color?: string;
  @text(100) font_asset_id?: string;
  @text(SHORT) font_family?: string;
  @text(40) font_style?: string;
  @color() highlight_color?: string;
  @color() stroke_color?: string;
  @text(10_000) text?: string;
  @object(() => ImageTextCurve) curve?: ImageTextCurve;
  @num(0.1, 4_096) font_size?: number;
  @num() letter_spacing?: number;
  @num(0, 100) line_height?: number;
  @num(0) stroke_width?: number;
  @int(1, 1_000) font_weight?: number;
  @object(() => ImageTextShadow) shadow?: ImageTextShadow;
  @bool() strike?: boolean;
  @bool() underline?: boolean;
  @text(40) wrap?: string;
}

export class ImageLayer {
  @text(100, 'unique within its page', true) id: string;
  @oneOf(IMAGE_LAYER_TYPES, true) type: string;
  @text() name?: string;
  @text(100, '"" at the top level, else the id of a `group` layer of the page') parent_id?: string;
  @bool() locked?: boolean;
  @bool() visible?: boolean;
  @num(0, 1) opacity?: number;
  @object(() => ImageTransform) transform?: ImageTransform;
  @object(() => ImageMask) mask?: ImageMask;
  @object(() => ImageEffects) effects?: ImageEffects;
  @object(() => ImageEraseMask) erase_mask?: ImageEraseMask;
  @object(() => ImageLayerImage) image?: ImageLayerImage;
  @object(() => ImagePaint) paint?: ImagePaint;
  @object(() => ImageShape) shape?: ImageShape;
  @object(() => ImageText) text?: ImageText;
}

export class ImagePage {
  @text(100, 'unique within the document', true) id: string;
  @text() name?: string;
  @color() background_color?: string;
  @text(100, 'set by export: the media item last rendered from this page ("" before)') latest_export_media_id?: string;
  @text(100, 'set by checkpoints: the media item rendered from this page ("" before)') preview_media_id?: string;
  @int(0, 1_000) color_grade_version?: number;
  @object(() => ImagePageBackground) background?: ImagePageBackground;
  @object(() => ImageColorGrade) color_grade?: ImageColorGrade;
  @object(() => ImageGuides) guides?: ImageGuides;
  @objects(() => ImageLayer, IMAGE_MAX_LAYERS_PER_PAGE) layers?: ImageLayer[];
}

export class ImageExportDefaults {
  @oneOf(IMAGE_EXPORT_FORMATS) format?: string;
  @color() matte_color?: string;
  @num(0, 1) quality?: number;
}

export class ImageEditorDocument {
  @int(IMAGE_SIZE_MIN_PX, IMAGE_SIZE_MAX_PX, true, 'pixels') width_px: number;
  @int(IMAGE_SIZE_MIN_PX, IMAGE_SIZE_MAX_PX, true, 'pixels') height_px: number;
  @objects(() => ImagePage, IMAGE_MAX_PAGES, 1, true) pages: ImagePage[];
  @int(IMAGE_DOCUMENT_SCHEMA_VERSION, IMAGE_DOCUMENT_SCHEMA_VERSION, false, 'the shape of this document (1)') schema_version?: number;
  @text() title?: string;
  @text(80, 'the size preset the document was made for, e.g. instagram-square') preset_key?: string;
  @text(100) brand_kit_id?: string;
  @int(0, 2_147_483_647) brand_kit_revision?: number;
  @object(() => ImageExportDefaults) export_defaults?: ImageExportDefaults;
}

/** The request member holding a document: an object, checked member by member. */
export function DocumentMember(isRequired: boolean, description: string): PropertyDecorator {
  return applyDecorators(
    isRequired ? ApiProperty({ type: ImageEditorDocument, description }) : ApiPropertyOptional({ type: ImageEditorDocument, description }),
    ...(isRequired ? [] : [Optional()]),
    IsObject({ message: '$property must be an object' }),
    ValidateNested(),
    Type(() => ImageEditorDocument),
  );
}
