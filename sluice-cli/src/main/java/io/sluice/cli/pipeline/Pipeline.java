package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.config.Settings;
import java.util.List;

/**
 * A pipeline read from a file: source, processing and sink, validated together, plus the settings as written so that
 * later checks (a format not in this build) can still point at a line of the file.
 *
 * <p>Immutable.
 */
public record Pipeline(String file, SourceConfig source, ProcessingConfig processing, MetricsConfig metrics,
        SinkConfig sink, Settings settings) {

    public Pipeline {
        checkDeadLetters(source, processing);
    }

    /**
     * The rule between the source and processing sections, which the loader checks also when the sink has mistakes.
     *
     * @return true
     * @throws InvalidSetting when the dead-letter topic is a source topic
     */
    static Boolean checkDeadLetters(SourceConfig source, ProcessingConfig processing) {
        InvalidSetting.check(processing.deadLetterTopic() == null
                || !source.topics().contains(processing.deadLetterTopic()), PipelineKeys.DEAD_LETTER_TOPIC,
                "'" + processing.deadLetterTopic() + "' is one of the source topics; dead letters need a topic of "
                        + "their own");
        return true;
    }

    /** What this build cannot run yet (a pending storage backend), where the file names it. */
    public List<ConfigProblem> pending() {
        StorageBackends.Entry backend = sink.storage().backend();
        return backend.available() ? List.of() : List.of(new ConfigProblem(settings.at(PipelineKeys.LOCATION),
                "sink.location: " + backend.scheme() + ":// is not in this build yet (" + backend.pending() + ")"));
    }

    /** Throws the {@link #pending()} problems, if any: for commands about to run the pipeline. */
    public void requireRunnable() throws ConfigException {
        if (!pending().isEmpty()) {
            throw new ConfigException(pending());
        }
    }

    /** One line: what the pipeline reads and where it writes. */
    public String describe() {
        return source.describeTopics() + " of " + String.join(",", source.bootstrapServers()) + " (group "
                + source.group() + ") to " + sink.describe();
    }
}
