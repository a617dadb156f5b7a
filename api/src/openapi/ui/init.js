// Starts Swagger UI on /api/docs. A file rather than an inline script: the app's CSP allows same-origin scripts only.
window.addEventListener("load", function () {
  window.ui = window.SwaggerUIBundle({
    url: "/api/docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The public validator badge would call an outside origin.
    validatorUrl: null,
  });
});
