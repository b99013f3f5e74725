package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigFiles;
import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.SettingsReader;
import io.sluice.cli.config.Variables;
import java.nio.file.Path;

/**
 * Loads pipeline files: YAML with {@code ${VAR}} substitution, checked key by key and then as a whole. Every problem
 * is reported with its file, line and column, all at once; secret values never appear in messages.
 *
 * <p>Stateless.
 */
public final class Pipelines {

    private Pipelines() {
    }

    /** Reads {@code file} with variables from the environment; relative paths in it are from its folder. */
    public static Pipeline load(Path file) throws ConfigException {
        return load(file, Variables.environment());
    }

    public static Pipeline load(Path file, Variables variables) throws ConfigException {
        return load(file, variables, Runtime.getRuntime().maxMemory());
    }

    /**
     * As {@link #load(Path, Variables)}, for a command that reads what the pipeline names (its group, topics and
     * storage: {@code verify}, {@code lag}) and runs no engine: this JVM's heap is not checked against the memory
     * budget, which only a run needs.
     */
    public static Pipeline loadToRead(Path file, Variables variables) throws ConfigException {
        return load(file, variables, TO_READ);
    }

    /** The heap of no run: a file loaded to read what it names, whose memory budget and time patterns are not run. */
    private static final long TO_READ = Long.MAX_VALUE;

    private static Pipeline load(Path file, Variables variables, long heapForRun) throws ConfigException {
        String text = ConfigFiles.read(file);
        Path base = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, base, variables, heapForRun);
    }

    /**
     * @param name how messages name the file
     * @param base the folder relative paths in the file are resolved against
     */
    public static Pipeline parse(String name, String text, Path base, Variables variables) throws ConfigException {
        return parse(name, text, base, variables, Runtime.getRuntime().maxMemory());
    }

    /** @param heapForRun the heap a run of the pipeline would have, which the memory budget must fit in */
    private static Pipeline parse(String name, String text, Path base, Variables variables, long heapForRun)
            throws ConfigException {
        FileKind.PIPELINE.expect(name, text);
        // unknown keys are said with what the checks below find, in one pass
        Problems unknownKeys = new Problems();
        Settings settings = new SettingsReader(PipelineKeys.CATALOG, variables).read(name, text, unknownKeys);
        Problems problems = new Problems();
        SourceConfig source = InvalidSetting.collect(settings, problems,
                () -> SourceConfig.from(settings, base, problems));
        ProcessingConfig processing = ProcessingConfig.from(settings, heapForRun, problems);
        MetricsConfig metrics = MetricsConfig.from(settings);
        SinkConfig sink = SinkConfig.from(settings, base, problems, heapForRun != TO_READ);
        // checked whatever the sink's mistakes
        boolean deadLettersApart = source != null && processing != null && InvalidSetting.collect(settings, problems,
                () -> Pipeline.checkDeadLetters(source, processing)) != null;
        Pipeline pipeline = !deadLettersApart || sink == null ? null
                : InvalidSetting.collect(settings, problems,
                        () -> new Pipeline(name, source, processing, metrics, sink, settings));
        problems.removeIf(settings::followsFromUnreadable);
        problems.addAll(unknownKeys);
        problems.throwIfAny();
        return pipeline;
    }
}
