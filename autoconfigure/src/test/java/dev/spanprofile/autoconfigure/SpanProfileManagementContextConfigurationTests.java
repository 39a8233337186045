package dev.spanprofile.autoconfigure;

import dev.spanprofile.actuate.PageHeadersFilter;
import dev.spanprofile.actuate.PageHeadersWebFilter;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileManagementContextConfigurationTests {

	private static final String EXPOSED = "management.endpoints.web.exposure.include=spanprofile";

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withUserConfiguration(SpanProfileManagementContextConfiguration.class);

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withUserConfiguration(SpanProfileManagementContextConfiguration.class);

	@Test
	void shouldSupplyTheServletFilterOnServletApplications() {
		this.servlet.withPropertyValues(EXPOSED).run((context) -> {
			assertThat(context).hasSingleBean(FilterRegistrationBean.class);
			assertThat(context.getBean(FilterRegistrationBean.class).getFilter()).isInstanceOf(PageHeadersFilter.class);
			assertThat(context).doesNotHaveBean(PageHeadersWebFilter.class);
		});
	}

	@Test
	void shouldSupplyTheWebFilterOnReactiveApplications() {
		this.reactive.withPropertyValues(EXPOSED).run((context) -> {
			assertThat(context).hasSingleBean(PageHeadersWebFilter.class);
			assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
		});
	}

	@Test
	void shouldNotSupplyTheWebFilterWithoutReactor() {
		this.reactive.withPropertyValues(EXPOSED)
			.withClassLoader(new FilteredClassLoader(Mono.class))
			.run((context) -> assertThat(context).doesNotHaveBean(PageHeadersWebFilter.class));
	}

	@Test
	void shouldSupplyNothingWhenTheEndpointIsNotExposed() {
		this.servlet.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class));
		this.reactive.run((context) -> assertThat(context).doesNotHaveBean(PageHeadersWebFilter.class));
	}

	@Test
	void shouldReadTheServletPathInEachOfItsSpellings() {
		assertThat(SpanProfileManagementContextConfiguration.ServletPageHeadersConfiguration.servletPathPrefix("/"))
			.isEmpty();
		for (String spelling : new String[] { "/app", "/app/", "/app/*", "app", " /app " }) {
			assertThat(SpanProfileManagementContextConfiguration.ServletPageHeadersConfiguration
				.servletPathPrefix(spelling)).as(spelling).isEqualTo("/app");
		}
	}

}
