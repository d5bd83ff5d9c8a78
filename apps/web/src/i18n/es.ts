import type { Messages } from "./en";

export const es: Messages = {
  store: { name: "Voltio", tagline: "Tecnología para trabajar y jugar" },
  nav: {
    home: "Inicio",
    products: "Productos",
    search: "Buscar productos",
    searchPlaceholder: "Buscar…",
    themeToDark: "Cambiar a modo oscuro",
    themeToLight: "Cambiar a modo claro",
    language: "Idioma",
    mainMenu: "Navegación principal",
  },
  catalog: {
    allProducts: "Todos los productos",
    noResults: "No se encontraron resultados",
    page: "Página {{page}} de {{total}}",
    previous: "Anterior",
    next: "Siguiente",
    freeShipping: "Envío gratis",
    shipping: "Envío: u$s {{cost}}",
    off: "{{percentage}}% OFF",
    onUnit: " en la {{unit}}º unidad",
    noStock: "Sin stock disponible",
    stock: "Stock: {{count}}",
    results: "{{count}} productos",
    featured: "Productos destacados",
    loading: "Cargando…",
  },
  product: {
    notFound: "¡Producto no encontrado!",
    backToProducts: "Volver a productos",
    description: "Descripción",
  },
  notFound: { title: "Página no encontrada", text: "La página que buscas no existe.", home: "Ir al inicio" },
  footer: { rights: "© 2022 Voltio. Todos los derechos reservados." },
};
