import { Heart, ShoppingCart } from "lucide-react";

/** The header's wishlist and cart: where each leads and the texts of its icon and preview. */
export const LIST_LINKS = {
  inCart: {
    path: "/cart",
    Icon: ShoppingCart,
    label: "nav.cart",
    empty: "nav.cartEmpty",
    goTo: "nav.goToCart",
    count: "nav.cartCount",
  },
  inWishList: {
    path: "/wishlist",
    Icon: Heart,
    label: "nav.wishlist",
    empty: "nav.wishlistEmpty",
    goTo: "nav.goToWishlist",
    count: "nav.wishlistCount",
  },
} as const;
