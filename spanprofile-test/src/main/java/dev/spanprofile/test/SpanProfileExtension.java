package dev.spanprofile.test;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Ties the profile assertions of a running test to its application context's profiler:
 * before each test it notes which requests are already stored, so that
 * {@link SpanProfileAssertions#ofLastRequest()} finds the ones the test made. Registered
 * by {@link ProfiledTest}. The test's thread holds its state, as it holds the test.
 */
public class SpanProfileExtension implements BeforeEachCallback, AfterEachCallback {

	private static final ThreadLocal<ProfiledRequests> current = new ThreadLocal<>();

	@Override
	public void beforeEach(ExtensionContext context) {
		ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
		SpanProfiler profiler;
		try {
			profiler = applicationContext.getBean(SpanProfiler.class);
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new IllegalStateException("@ProfiledTest needs a spanprofile engine in the application context: "
					+ "add spanprofile-spring-boot-starter (spanprofile-spring-boot3-starter on Boot 3.5) and leave "
					+ "spanprofile.enabled on", ex);
		}
		ProfiledTest profiled = TestContextAnnotationUtils.findMergedAnnotation(context.getRequiredTestClass(),
				ProfiledTest.class);
		ProfileFiles files = new ProfileFiles(context.getRequiredTestClass().getName(),
				context.getRequiredTestMethod().getName(), profiled != null && profiled.report());
		current.set(new ProfiledRequests(profiler, files));
	}

	@Override
	public void afterEach(ExtensionContext context) {
		current.remove();
	}

	static ProfiledRequests current() {
		ProfiledRequests requests = current.get();
		if (requests == null) {
			throw new IllegalStateException("No profiled test is running on this thread: annotate the test class "
					+ "with @ProfiledTest (and @SpringBootTest), and read profiles from the test's own thread");
		}
		return requests;
	}

}
