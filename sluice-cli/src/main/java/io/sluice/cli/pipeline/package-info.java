/**
 * Pipeline files: every key ({@code PipelineKeys}), the checked pipeline they make, the parts that run it (engine
 * configuration, archive sink, audit), and the generated reference ({@code sluice docs}).
 */
package io.sluice.cli.pipeline;
