package io.sluice.local.net;


/**
 * Another JVM of the machine holding ports, as a second module's tests would: {@code PortHolder <port>...} draws nothing,
 * it reserves each given port (prints {@code HELD <port>} or {@code TAKEN <port>}), then waits to be killed.
 */
public final class PortHolder {

    private PortHolder() {
    }

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            int port = Integer.parseInt(arg);
            System.out.println((Ports.handOut(port) ? "HELD " : "TAKEN ") + port);
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
