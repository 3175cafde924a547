/**
 * The Unicode blocks XSD's \p{IsName} names (XML Schema 1.0, Appendix F, after Unicode 3.1),
 * keyed by the name without spaces, hyphens or underscores, in lower case, as F&O asks block
 * names to be matched loosely.
 */
const RANGES: [string, number, number][] = [
  ['BasicLatin', 0x0000, 0x007f], ['Latin-1Supplement', 0x0080, 0x00ff], ['LatinExtended-A', 0x0100, 0x017f],
  ['LatinExtended-B', 0x0180, 0x024f], ['IPAExtensions', 0x0250, 0x02af], ['SpacingModifierLetters', 0x02b0, 0x02ff],
  ['CombiningDiacriticalMarks', 0x0300, 0x036f], ['Greek', 0x0370, 0x03ff], ['GreekandCoptic', 0x0370, 0x03ff],
  ['Cyrillic', 0x0400, 0x04ff], ['Armenian', 0x0530, 0x058f], ['Hebrew', 0x0590, 0x05ff], ['Arabic', 0x0600, 0x06ff],
  ['Syriac', 0x0700, 0x074f], ['Thaana', 0x0780, 0x07bf], ['Devanagari', 0x0900, 0x097f], ['Bengali', 0x0980, 0x09ff],
  ['Gurmukhi', 0x0a00, 0x0a7f], ['Gujarati', 0x0a80, 0x0aff], ['Oriya', 0x0b00, 0x0b7f], ['Tamil', 0x0b80, 0x0bff],
  ['Telugu', 0x0c00, 0x0c7f], ['Kannada', 0x0c80, 0x0cff], ['Malayalam', 0x0d00, 0x0d7f], ['Sinhala', 0x0d80, 0x0dff],
  ['Thai', 0x0e00, 0x0e7f], ['Lao', 0x0e80, 0x0eff], ['Tibetan', 0x0f00, 0x0fff], ['Myanmar', 0x1000, 0x109f],
  ['Georgian', 0x10a0, 0x10ff], ['HangulJamo', 0x1100, 0x11ff], ['Ethiopic', 0x1200, 0x137f], ['Cherokee', 0x13a0, 0x13ff],
  ['UnifiedCanadianAboriginalSyllabics', 0x1400, 0x167f], ['Ogham', 0x1680, 0x169f], ['Runic', 0x16a0, 0x16ff],
  ['Khmer', 0x1780, 0x17ff], ['Mongolian', 0x1800, 0x18af], ['LatinExtendedAdditional', 0x1e00, 0x1eff],
  ['GreekExtended', 0x1f00, 0x1fff], ['GeneralPunctuation', 0x2000, 0x206f], ['SuperscriptsandSubscripts', 0x2070, 0x209f],
  ['CurrencySymbols', 0x20a0, 0x20cf], ['CombiningMarksforSymbols', 0x20d0, 0x20ff], ['LetterlikeSymbols', 0x2100, 0x214f],
  ['NumberForms', 0x2150, 0x218f], ['Arrows', 0x2190, 0x21ff], ['MathematicalOperators', 0x2200, 0x22ff],
  ['MiscellaneousTechnical', 0x2300, 0x23ff], ['ControlPictures', 0x2400, 0x243f], ['OpticalCharacterRecognition', 0x2440, 0x245f],
  ['EnclosedAlphanumerics', 0x2460, 0x24ff], ['BoxDrawing', 0x2500, 0x257f], ['BlockElements', 0x2580, 0x259f],
  ['GeometricShapes', 0x25a0, 0x25ff], ['MiscellaneousSymbols', 0x2600, 0x26ff], ['Dingbats', 0x2700, 0x27bf],
  ['BraillePatterns', 0x2800, 0x28ff], ['CJKRadicalsSupplement', 0x2e80, 0x2eff], ['KangxiRadicals', 0x2f00, 0x2fdf],
  ['IdeographicDescriptionCharacters', 0x2ff0, 0x2fff], ['CJKSymbolsandPunctuation', 0x3000, 0x303f], ['Hiragana', 0x3040, 0x309f],
  ['Katakana', 0x30a0, 0x30ff], ['Bopomofo', 0x3100, 0x312f], ['HangulCompatibilityJamo', 0x3130, 0x318f], ['Kanbun', 0x3190, 0x319f],
  ['BopomofoExtended', 0x31a0, 0x31bf], ['EnclosedCJKLettersandMonths', 0x3200, 0x32ff], ['CJKCompatibility', 0x3300, 0x33ff],
  ['CJKUnifiedIdeographsExtensionA', 0x3400, 0x4dbf], ['CJKUnifiedIdeographs', 0x4e00, 0x9fff], ['YiSyllables', 0xa000, 0xa48f],
  ['YiRadicals', 0xa490, 0xa4cf], ['HangulSyllables', 0xac00, 0xd7af], ['HighSurrogates', 0xd800, 0xdb7f],
  ['HighPrivateUseSurrogates', 0xdb80, 0xdbff], ['LowSurrogates', 0xdc00, 0xdfff], ['PrivateUse', 0xe000, 0xf8ff],
  ['PrivateUseArea', 0xe000, 0xf8ff], ['CJKCompatibilityIdeographs', 0xf900, 0xfaff], ['AlphabeticPresentationForms', 0xfb00, 0xfb4f],
  ['ArabicPresentationForms-A', 0xfb50, 0xfdff], ['CombiningHalfMarks', 0xfe20, 0xfe2f], ['CJKCompatibilityForms', 0xfe30, 0xfe4f],
  ['SmallFormVariants', 0xfe50, 0xfe6f], ['ArabicPresentationForms-B', 0xfe70, 0xfeff], ['HalfwidthandFullwidthForms', 0xff00, 0xffef],
  ['Specials', 0xfff0, 0xffff], ['OldItalic', 0x10300, 0x1032f], ['Gothic', 0x10330, 0x1034f], ['Deseret', 0x10400, 0x1044f],
  ['ByzantineMusicalSymbols', 0x1d000, 0x1d0ff], ['MusicalSymbols', 0x1d100, 0x1d1ff], ['MathematicalAlphanumericSymbols', 0x1d400, 0x1d7ff],
  ['CJKUnifiedIdeographsExtensionB', 0x20000, 0x2a6df], ['CJKCompatibilityIdeographsSupplement', 0x2f800, 0x2fa1f], ['Tags', 0xe0000, 0xe007f],
];

export const BLOCKS: ReadonlyMap<string, readonly [number, number]> = new Map(
  RANGES.map(([name, from, to]) => [name.replace(/[\s_-]/g, '').toLowerCase(), [from, to] as const]),
);
