package dev.spanprofile.test;

import java.util.List;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Gives the application context of a {@link ProfiledTest} class its profiling settings.
 * First of the customizers: Spring Boot 3.5's test support turns tracing off in tests
 * unless a property it reads while customizing says otherwise, and that property is set
 * here.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProfiledTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		ProfiledTest profiled = TestContextAnnotationUtils.findMergedAnnotation(testClass, ProfiledTest.class);
		return (profiled != null) ? ProfiledTestContextCustomizer.of(profiled) : null;
	}

}
