package dev.spanprofile.store;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child that starts as its finished parent's request is dropped must not leave anything
 * behind that no eviction reaches: not even a grandchild started at that moment on
 * another thread of the request, which looks its parent up by id. The interleaving is
 * forced by running the other threads' steps from the map's first put of the child's
 * record (the store once published it before its parent took it, then replaced it when
 * the parent, dropped meanwhile, refused it: a grandchild joined the first record, which
 * nothing ever marked evicted, and stayed stored for good).
 */
class GrandchildOfRefusedChildTest {

	@Test
	void aGrandchildStartedWhileItsParentJoinsADroppedRequestDoesNotOutliveIt() throws Exception {
		AtomicLong clock = new AtomicLong(1);
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(2, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		Map<String, SpanRecord> spans = new ConcurrentHashMap<>() {

			private boolean fired;

			@Override
			public SpanRecord put(String key, SpanRecord value) {
				SpanRecord previous = super.put(key, value);
				if (key.equals("c") && !this.fired) {
					this.fired = true;
					// Other threads, as C's record is published: requests end and push P
					// (finished) out of the store...
					for (int i = 0; i < 3; i++) {
						store.spanStarted("o" + i, "o" + i, null, false, "GET /other", "SERVER",
								clock.incrementAndGet(), "w");
						store.spanEnded("o" + i, "GET /other", "OK", clock.incrementAndGet(), false);
					}
					// ...and a thread of the request starts a grandchild under C.
					store.spanStarted("t", "g", "c", true, "query", "CLIENT", clock.incrementAndGet(), "w2");
				}
				return previous;
			}

		};
		replace(store, "spans", spans);
		replace(fieldValue(store, "budget"), "spans", spans);

		store.spanStarted("t", "p", null, false, "GET /", "SERVER", clock.incrementAndGet(), "w");
		store.spanEnded("p", "GET /", "OK", clock.incrementAndGet(), false);
		// An async child of the finished request starts.
		store.spanStarted("t", "c", "p", true, "async", "INTERNAL", clock.incrementAndGet(), "w1");
		store.spanEnded("g", "query", "OK", clock.incrementAndGet(), false);
		store.spanEnded("c", "async", "OK", clock.incrementAndGet(), false);

		// Later requests push every earlier one out.
		for (int i = 0; i < 20; i++) {
			store.spanStarted("l" + i, "l" + i, null, false, "GET /later", "SERVER", clock.incrementAndGet(), "w");
			store.spanEnded("l" + i, "GET /later", "OK", clock.incrementAndGet(), false);
		}
		System.out.printf("p stored: %s, c a request of its own: %s, g stored: %s, g's request: %s, spans stored: %d%n",
				store.find("p") != null, store.find("c") == null || store.find("c").isLocalRoot(),
				store.find("g") != null, (store.find("g") != null) ? store.find("g").localRoot().spanId() : "-",
				store.size());
		assertThat(store.find("g")).as("grandchild of a request long gone").isNull();
		assertThat(store.size()).isEqualTo(2);
	}

	private static Object fieldValue(Object target, String name) throws Exception {
		Field field = target.getClass().getDeclaredField(name);
		field.setAccessible(true);
		return field.get(target);
	}

	private static void replace(Object target, String name, Object value) throws Exception {
		Field field = target.getClass().getDeclaredField(name);
		field.setAccessible(true);
		field.set(target, value);
	}

}
