package io.sluice.bench.systems;

import io.sluice.bench.ArchiveWork;
import io.sluice.bench.Scenario;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.errors.NotFoundException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.Herder;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.util.FutureCallback;

/**
 * Kafka Connect 4.3.1 in standalone mode, in this JVM, running {@link BenchSinkConnector} with one task per partition.
 * Settings besides the defaults, so that it does what Sluice does: Sluice's consumer fetch sizes, and
 * {@code offset.flush.interval.ms} equal to Sluice's commit interval. The value converter is the system's choice:
 * {@link #sameWork()} takes the bytes as they are (the byte-array converter), {@link #asDeployed()} converts JSON
 * values as Connect's storage sinks are usually run on schemaless JSON: the {@code JsonConverter} with
 * {@code schemas.enable=false} parses each value into Connect's data, and the task writes it back as JSON.
 *
 * <p>Threading: the benchmark's main thread; the tasks report into the {@link Measurement} from Connect's threads.
 */
final class ConnectSinkSystem implements ArchiveSystem {

    /** What the tasks, which Connect instantiates, count records into: one system runs per JVM. */
    private static volatile Measurement measurement;

    private final Class<? extends Converter> valueConverter;

    private ConnectSinkSystem(Class<? extends Converter> valueConverter) {
        this.valueConverter = valueConverter;
    }

    /** The same work as Sluice's: no conversion. */
    static ConnectSinkSystem sameWork() {
        return new ConnectSinkSystem(ByteArrayConverter.class);
    }

    /** JSON values through Connect's data model and back, as its storage sinks run on schemaless JSON. */
    static ConnectSinkSystem asDeployed() {
        return new ConnectSinkSystem(JsonConverter.class);
    }

    static Measurement measurement() {
        return measurement;
    }

    @Override
    public long run(String bootstrap, String topic, Scenario scenario, Path output, Measurement m) throws Exception {
        measurement = m;
        ArchiveWork work = scenario.archive();
        String name = SystemMain.group("connect-archive");
        Map<String, String> worker = new HashMap<>();
        worker.put("bootstrap.servers", bootstrap);
        worker.put("key.converter", ByteArrayConverter.class.getName());
        worker.put("value.converter", valueConverter.getName());
        worker.put("value.converter.schemas.enable", "false");
        worker.put("offset.flush.interval.ms", Long.toString(work.commitInterval().toMillis()));
        worker.put("offset.storage.file.filename", output.resolveSibling(name + ".offsets").toString());
        worker.put("listeners", "http://127.0.0.1:0");
        // the connector is on the classpath and listed in META-INF/services: no scan of 120 jars
        worker.put("plugin.discovery", "service_load");
        work.fetchSizes().forEach((key, value) -> worker.put("consumer." + key, value.toString()));

        Connect<StandaloneHerder> connect = new ConnectStandalone().startConnect(worker);
        try (CommittedOffsets committed = new CommittedOffsets(bootstrap, topic, scenario.partitions())) {
            StandaloneHerder herder = connect.herder();
            FutureCallback<Herder.Created<ConnectorInfo>> created = new FutureCallback<>();
            herder.putConnectorConfig(name, Map.of(
                    "name", name,
                    "connector.class", BenchSinkConnector.class.getName(),
                    "tasks.max", Integer.toString(scenario.partitions()),
                    "topics", topic,
                    BenchSinkConnector.OUTPUT, output.toString(),
                    BenchSinkConnector.SCENARIO, scenario.name(),
                    BenchSinkConnector.SMOKE, Boolean.toString(scenario.smoke())), false, created);
            created.get(60, TimeUnit.SECONDS);
            m.awaitDone(TIMEOUT, () -> failure(herder, name));
            // Connect's sink consumers use the group connect-<connector name>
            return committed.awaitEnd("connect-" + name, ends -> true, TIMEOUT, () -> failure(herder, name));
        } finally {
            connect.stop();
        }
    }

    private static Optional<String> failure(StandaloneHerder herder, String name) {
        ConnectorStateInfo status;
        try {
            status = herder.connectorStatus(name);
        } catch (NotFoundException e) {
            return Optional.empty(); // not started yet
        }
        if ("FAILED".equals(status.connector().state())) {
            return Optional.of("connector: " + status.connector().trace());
        }
        return status.tasks().stream().filter(t -> "FAILED".equals(t.state()))
                .map(t -> "task " + t.id() + ": " + t.trace()).findFirst();
    }
}
