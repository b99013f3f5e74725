package io.sluice.testkit.child;

/** A child that does nothing until it is stopped: lets the test kit test its own process handling cheaply. */
public final class Idle {

    private Idle() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("SLUICE-READY idle");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
