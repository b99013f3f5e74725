package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.sink.ArchiveSink;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Builds what runs a pipeline: the engine's configuration and the archive sink, through the format and backend
 * registries.
 *
 * <p>Stateless.
 */
public final class PipelineParts {

    private PipelineParts() {
    }

    /**
     * The engine configuration of {@code pipeline}, still open for additions (a meter registry).
     *
     * @param topics the topics to consume: the pipeline's own, or those its pattern matched
     */
    public static EngineConfig.Builder engine(Pipeline pipeline, List<String> topics) {
        SourceConfig source = pipeline.source();
        ProcessingConfig processing = pipeline.processing();
        EngineConfig.Builder builder = EngineConfig.builder()
                .consumerProperties(source.clientProperties())
                .groupId(source.group())
                .topics(topics.toArray(String[]::new))
                .startPosition(source.start())
                .outOfRangePolicy(source.onOutOfRange())
                .concurrency(processing.concurrency())
                .memoryBudgetBytes(processing.memoryBudget())
                .commitInterval(processing.commitInterval())
                .drainTimeout(processing.drainTimeout())
                .maxAttempts(processing.maxAttempts())
                .backoff(processing.retryBackoff(), processing.retryBackoffMax())
                .failureOutcome(processing.onFailure());
        if (!source.extra().containsKey(ConsumerConfig.CLIENT_ID_CONFIG)) {
            // names the pipeline in the brokers' logs and quotas
            builder.consumerProperty(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-" + source.group());
        }
        if (processing.deadLetterTopic() != null) {
            builder.deadLetterTopic(processing.deadLetterTopic());
        }
        return builder;
    }

    /** The sink's storage backend. Throws for a backend this build does not have yet (whatever the format). */
    public static StorageBackend backend(Pipeline pipeline) throws ConfigException, IOException {
        Optional<ConfigProblem> pending = pipeline.pendingBackend();
        if (pending.isPresent()) {
            throw new ConfigException(List.of(pending.get()));
        }
        return pipeline.sink().backend().factory().create(pipeline.sink());
    }

    /** The archive sink of {@code pipeline}. Throws for a format or backend this build does not have yet. */
    public static ArchiveSink sink(Pipeline pipeline) throws ConfigException, IOException {
        SinkConfig sink = pipeline.sink();
        pipeline.requireRunnable();
        FileFormat format = sink.format().factory().create(sink.formatOptions());
        return new ArchiveSink(backend(pipeline), sink.layout(), format, sink.rolling(),
                sink.delivery() == Delivery.EXACTLY_ONCE);
    }
}
