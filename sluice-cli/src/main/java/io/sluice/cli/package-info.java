/**
 * The sluice command: {@link io.sluice.cli.Main} and {@link io.sluice.cli.SluiceCommand} (where every subcommand is
 * registered), and what all commands share (context, exit statuses, the pipeline file argument, run failures, the
 * version); {@link io.sluice.cli.ClassDataTraining} is what the {@code sluice} script runs once per build so that
 * every start maps the command's classes from an archive. Each feature is a package of its own, its command beside it: {@code run}, {@code validate},
 * {@code verify}, {@code lag}, {@code quickstart}; what they use: {@code probe} (what a broker port speaks),
 * {@code status} (metrics and health endpoint), {@code progress} (the live line), {@code cluster} (Kafka flags and
 * admin access), {@code pipeline} (pipeline files, their keys and reference, {@code docs}), {@code config} (the YAML
 * and key machinery) and {@code console} (output, logs, units).
 */
package io.sluice.cli;
