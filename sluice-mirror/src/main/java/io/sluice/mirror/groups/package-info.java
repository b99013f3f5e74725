/**
 * Consumer offset translation: the source groups' committed offsets written, exactly, to the same groups in the target
 * ({@link io.sluice.mirror.groups.GroupOffsetSync}), the translation itself
 * ({@link io.sluice.mirror.groups.OffsetTranslator}), and what a consumer failing over would re-read
 * ({@link io.sluice.mirror.groups.GroupTranslationReport}).
 */
package io.sluice.mirror.groups;
