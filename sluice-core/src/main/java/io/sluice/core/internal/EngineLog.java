package io.sluice.core.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one logger, {@code io.sluice.engine}: what a person reads names the engine, not whichever internal
 * class noticed (the command's log lines show the logger's last name: "engine: ...").
 */
public final class EngineLog {

    public static final Logger LOG = LoggerFactory.getLogger("io.sluice.engine");

    private EngineLog() {
    }
}
