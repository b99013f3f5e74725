/**
 * What {@code sluice produce} reads: files, folders, globs or standard input ({@link io.sluice.producer.input.Inputs}),
 * decompressed when their first bytes say so ({@link io.sluice.producer.input.Compression}), cut into lines with
 * byte-exact positions ({@link io.sluice.producer.input.LineReader}) and parsed into records by an
 * {@link io.sluice.producer.input.InputFormat}. Every record knows its {@link io.sluice.producer.input.Origin}, so an
 * error or a journal line can name the file, the line and the byte offset.
 */
package io.sluice.producer.input;
