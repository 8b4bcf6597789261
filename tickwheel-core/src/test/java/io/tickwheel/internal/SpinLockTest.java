package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registry's lock alone: exclusion under contention, and a waiter that outlasts the spins. */
class SpinLockTest {

    /** Guarded by the lock under test; plain on purpose, so a lost update shows. */
    private long counter;

    @Test
    void manyThreads_incrementUnderTheLock_loseNoUpdate() throws Exception {
        SpinLock lock = new SpinLock();
        int threads = 4;
        int perThread = 200_000;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    lock.lock();
                    try {
                        counter++;
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(counter).isEqualTo((long) threads * perThread);
    }

    @Test
    void waiter_whileHolderSleeps_parksAndGetsTheLockAfterRelease() throws Exception {
        SpinLock lock = new SpinLock();
        CountDownLatch taken = new CountDownLatch(1);
        CountDownLatch acquired = new CountDownLatch(1);
        lock.lock();
        Thread waiter = new Thread(() -> {
            taken.countDown();
            lock.lock();
            try {
                acquired.countDown();
            } finally {
                lock.unlock();
            }
        });
        waiter.start();
        taken.await();
        // Long enough for the waiter to run out of spins and park at least once.
        assertThat(acquired.await(50, TimeUnit.MILLISECONDS)).as("excluded while held").isFalse();
        lock.unlock();
        assertThat(acquired.await(10, TimeUnit.SECONDS)).as("taken after release").isTrue();
        waiter.join();
    }
}
